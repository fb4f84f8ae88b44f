import {
  composerFieldsNote,
  idempotencyProblems,
  PostRequest,
  ValidationRequest,
  ValidationResponse,
} from '@postwave/shared';
import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, shuttingDown, unauthorized } from '#server/api/common.ts';
import { postStatuses } from '#server/db/schema.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { schedulerIdempotencyKey } from '#server/idempotency/openapi.ts';
import { TemplateIdField } from '#server/templates/schema.ts';
import { RecycleField } from './recycle-schema.ts';
import { ListPostsQuery, Post, PostActionRequest, PostPage, PostPatchRequest } from './schema.ts';
import { PostEvents } from './timeline-schema.ts';

/** The answer to every change of one post: the post as it now is, or why it could not change. */
const changedPost = (malformed: string, invalid: string, idempotent = false) => ({
  200: { description: 'The post.', content: { [json]: Post } },
  ...(idempotent ? { 202: submittedPost } : {}),
  ...problemResponses({
    invalid_request: malformed,
    ...unauthorized,
    ...notFound,
    invalid_status: 'posted, or being published',
    validation_failed: invalid,
    ...(idempotent ? { ...idempotencyProblems, ...shuttingDown } : {}),
  }),
});

/** Publishing or scheduling by a member whose workspace requires approval submits it instead. */
const submittedPost = {
  description:
    'Submitted for approval (the workspace requires it for this member): the post, `pending_approval`.',
  content: { [json]: Post },
};

/**
 * The Scheduler's post request: the SDK's, plus `templateId` (then `message` and `accountIds` may
 * come from it) and `recycle` (docs/recycling.md), which only the Scheduler keeps on a post.
 */
const SchedulerPostRequest = PostRequest.extend({
  message: PostRequest.shape.message
    .optional()
    .meta({ description: 'Required unless `templateId` supplies it.' }),
  accountIds: PostRequest.shape.accountIds
    .optional()
    .meta({ description: 'Required (at least one) unless `templateId` supplies them.' }),
  templateId: TemplateIdField.optional(),
  recycle: RecycleField,
}).meta({ id: 'SchedulerPostRequest' });

export const postsRoutes = defineApiRoutes({
  validatePost: {
    method: 'post',
    path: '/api/v1/validation',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'validatePost',
    summary: 'Validate a post against each of its accounts (never publishes)',
    description:
      'Runs every check publishing would, per account, without publishing. An invalid post is still 200 with `valid: false`; so is a request that breaks a rule of its own (no accounts or more than 100, a text over 100,000 characters, more than 50 media, a malformed media key, an override for an account not in `accountIds`), with those issues in the top-level `errors` and no per-account results. Only a malformed body (invalid JSON, a field missing or of the wrong type) is 400.' +
      composerFieldsNote,
    requestBody: { content: { [json]: ValidationRequest } },
    bodyRuleBreaks: 'result',
    responses: {
      200: {
        description: 'Per-account results; `valid: false` is still 200.',
        content: { [json]: ValidationResponse },
      },
      ...problemResponses({ ...unauthorized, invalid_request: 'malformed body' }),
    },
  },
  listPosts: {
    method: 'get',
    path: '/api/v1/posts',
    auth: 'caller',
    permission: 'read',
    operationId: 'listPosts',
    summary: 'Posts, newest first, keyset-paginated',
    parameters: [
      {
        name: 'status',
        in: 'query',
        description: 'Only posts in this status. Left blank (`status=`), as if absent: every status.',
        schema: z.enum(postStatuses),
      },
      {
        name: 'limit',
        in: 'query',
        description: '1–200, default 50 (also when left blank); over 200 is 400.',
        schema: ListPostsQuery.shape.limit,
      },
      {
        name: 'cursor',
        in: 'query',
        description: '`nextCursor` of the previous page.',
        schema: ListPostsQuery.shape.cursor,
      },
    ],
    responses: {
      200: { description: 'A page.', content: { [json]: PostPage } },
      ...problemResponses({ ...unauthorized, invalid_request: 'bad status, limit or cursor' }),
    },
  },
  createPost: {
    method: 'post',
    path: '/api/v1/posts',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'createPost',
    summary: 'Publish now, schedule, or save a draft',
    description:
      '`now` validates every target first (422 and nothing published if any is invalid) and returns the finished post, `posted` or `failed`. `schedule` needs a future `scheduledAt` and validates up front.' +
      composerFieldsNote +
      ' The post stores `overrides` and `thread`; each result keeps its `parts` (and `firstComment`), and a retry continues from the first part not posted.' +
      '\n\n**From a template.** With `templateId`, each of `message`, `accountIds`, `media`, `accountOptions`, `overrides` and `thread` that the request leaves out is the template’s, and a field the request sends replaces the template’s whole field (field by field, never merged inside a field); the template’s `overrides` and `accountOptions` of accounts the post does not go to are dropped. The result is validated like any post. The post holds a copy: changing or deleting the template later never changes it. An unknown template (or another workspace’s) is 422 `validation_failed` with `errors[0].path` `templateId` (code `template_not_found`).',
    parameters: [schedulerIdempotencyKey],
    requestBody: { content: { [json]: SchedulerPostRequest } },
    responses: {
      201: { description: 'The post.', content: { [json]: Post } },
      202: submittedPost,
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'malformed JSON, wrong field types, or a malformed Idempotency-Key',
        validation_failed:
          'invalid for some account, unknown mode, scheduledAt missing/past, or no such `templateId` (`template_not_found`)',
        ...idempotencyProblems,
        ...shuttingDown,
      }),
    },
  },
  getPost: {
    method: 'get',
    path: '/api/v1/posts/{id}',
    auth: 'caller',
    permission: 'read',
    operationId: 'getPost',
    summary: 'One post with its per-target results',
    parameters: [idParam('post')],
    responses: {
      200: { description: 'The post.', content: { [json]: Post } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  listPostEvents: {
    method: 'get',
    path: '/api/v1/posts/{id}/events',
    auth: 'caller',
    permission: 'read',
    operationId: 'listPostEvents',
    summary: "The post's timeline, oldest first",
    description:
      'Every step of the post: created, edited, scheduled, media staged, each attempt at a platform with its outcome and the platform’s status, posted or failed, an unknown outcome resolved. Each event is written in the same transaction as the change it describes. A deleted post keeps its timeline, which ends with `deleted` (who deleted it, and when): it stays readable by the members of the post’s workspace while `GET /api/v1/posts/{id}` answers 404; another workspace’s post, or an id never used, answers 404. Errors carry a `hint` in plain words.',
    parameters: [idParam('post')],
    responses: {
      200: { description: 'The events.', content: { [json]: PostEvents } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  updatePost: {
    method: 'patch',
    path: '/api/v1/posts/{id}',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'updatePost',
    summary: 'Edit a draft, scheduled or failed post (a scheduled one is re-validated)',
    description:
      'A body with only `recycle` also changes a posted original (turning recycling on, changing it, or off with `null`); a recycled copy cannot be recycled itself (422 on `recycle`).',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: PostPatchRequest } },
    responses: changedPost('malformed body', 'no longer valid'),
  },
  actOnPost: {
    method: 'post',
    path: '/api/v1/posts/{id}',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'actOnPost',
    summary: 'Publish now, schedule, move back to draft, or resolve unknown targets',
    description:
      'Publishing a `failed` post retries only the targets that did not post: a target is never posted twice. A thread continues from its first part not posted (the parts already posted are not sent again, and the next one replies to the last posted part); a target whose post went out but whose first comment failed gets only the comment. Targets whose result is `unknown` (a send interrupted on a platform that can neither dedupe a resend nor be checked) are left alone by `postingMode`; resolve them with `{ "resolveUnknown": "mark_posted" }` (you checked the account) or `{ "resolveUnknown": "post_again" }` (sends them now), optionally limited by `accountIds`; 409 when the post has none.',
    parameters: [idParam('post'), schedulerIdempotencyKey],
    requestBody: { content: { [json]: PostActionRequest } },
    responses: changedPost(
      'malformed body, or neither `postingMode` nor `resolveUnknown` given',
      'invalid, unknown mode, or scheduledAt missing/past',
      true,
    ),
  },
  deletePost: {
    method: 'delete',
    path: '/api/v1/posts/{id}',
    auth: 'caller',
    permission: 'posts.publish',
    operationId: 'deletePost',
    summary: 'Delete a draft, scheduled or failed post',
    parameters: [idParam('post')],
    responses: {
      204: { description: 'Deleted.' },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_status: 'posted, or being published' }),
    },
  },
});
