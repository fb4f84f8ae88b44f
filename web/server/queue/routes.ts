import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { QueueMoveRequest, QueueSettings, QueueView } from './schema.ts';

const queueAnswer = (what: string) => ({
  200: { description: what, content: { [json]: QueueView } },
});

export const queueRoutes = defineApiRoutes({
  getQueue: {
    method: 'get',
    path: '/api/v1/accounts/{id}/queue',
    auth: 'caller',
    permission: 'read',
    operationId: 'getQueue',
    summary: 'An account’s queue: posting slots, upcoming posts and the next free slots',
    description:
      'Slots are weekly wall-clock times in the queue’s IANA zone. On a day clocks spring forward a slot in the skipped hour fires as soon after it as exists (02:30 becomes 03:30); on a day they fall back a slot in the repeated hour fires once, at its first occurrence. An account without a queue answers the user’s zone and no slots.',
    parameters: [idParam('account')],
    responses: { ...queueAnswer('The queue.'), ...problemResponses({ ...unauthorized, ...notFound }) },
  },
  setQueue: {
    method: 'put',
    path: '/api/v1/accounts/{id}/queue',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'setQueue',
    summary: 'Replace an account’s posting slots',
    description:
      'Posts already scheduled keep their times. Duplicate slots count once. 422 names each bad field: `timezone` (not an IANA zone), `slots[i].weekday` (not 1–7), `slots[i].time` (not `HH:MM`).',
    parameters: [idParam('account')],
    requestBody: { content: { [json]: QueueSettings } },
    responses: {
      ...queueAnswer('The queue as saved.'),
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: 'wrong types',
        validation_failed: 'unknown zone, weekday outside 1–7, or time not HH:MM',
      }),
    },
  },
  moveInQueue: {
    method: 'post',
    path: '/api/v1/accounts/{id}/queue/move',
    auth: 'caller',
    permission: 'posts.publish',
    operationId: 'moveInQueue',
    summary: 'Reorder the account’s queue, or post a queued post next',
    description:
      'Moves times, never adds any: `up`/`down` swap the post’s scheduled time with its neighbour’s; `next` gives it the earliest time (a free slot before the first queued post if there is one, otherwise the first post’s time, each post before it moving one place later). A post for several accounts moves in each of them.',
    parameters: [idParam('account')],
    requestBody: { content: { [json]: QueueMoveRequest } },
    responses: {
      ...queueAnswer('The queue after the move.'),
      ...problemResponses({
        ...unauthorized,
        not_found: 'no such account, or the post is not a scheduled post of it',
        invalid_request: 'wrong types',
        invalid_status: 'a post involved is being published right now',
      }),
    },
  },
});
