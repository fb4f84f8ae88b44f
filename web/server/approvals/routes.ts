import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, shuttingDown, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { Post } from '#server/posts/schema.ts';
import { ApproveRequest, RejectRequest } from './schema.ts';

/** What approving and rejecting both answer with: the same roles and race rules. */
const decisionProblems = {
  ...unauthorized,
  ...notFound,
  forbidden: 'a contributor or viewer (`requiredRole: "editor"`)',
  self_approval: 'the caller wrote the post',
  invalid_status: 'not waiting for approval, or decided meanwhile',
};

export const approvalsRoutes = defineApiRoutes({
  approvePost: {
    method: 'post',
    path: '/api/v1/posts/{id}/approve',
    auth: 'caller',
    permission: 'posts.approve',
    operationId: 'approvePost',
    summary: 'Approve a submission: performs the publish, schedule or queue request it carries',
    description:
      'Owners, admins and editors approve posts waiting in `pending_approval`, never their own (403 `self_approval`). The requested action runs: `now` publishes and answers the finished post (or, given `scheduledAt`, schedules it for then: the approver chose when it goes out); `schedule` keeps the requested time, or takes `scheduledAt` (required once the requested time has passed: 409 `scheduled_time_passed`); `queue` takes the next free slot. The decision is a conditional update on the status: of two approvers at once one succeeds and the other gets 409 `invalid_status`, so the post goes out once. An edit made after the approver read the post also answers 409 (read it again). Sends `post.approved` and e-mails the author.',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: ApproveRequest } },
    responses: {
      200: { description: 'The post after the requested action.', content: { [json]: Post } },
      ...problemResponses({
        ...decisionProblems,
        scheduled_time_passed: 'the requested time has passed and no new `scheduledAt` was given',
        validation_failed: 'a bad `scheduledAt` or comment, or the post is no longer publishable',
        ...shuttingDown,
      }),
    },
  },
  rejectPost: {
    method: 'post',
    path: '/api/v1/posts/{id}/reject',
    auth: 'caller',
    permission: 'posts.approve',
    operationId: 'rejectPost',
    summary: 'Send a submission back to draft with a comment',
    description:
      'The post returns to `draft` with `approval.rejected: { by, at, comment }`; the author edits and submits again. Same roles and race rules as approving. Sends `post.rejected` and e-mails the author.',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: RejectRequest } },
    responses: {
      200: { description: 'The post, now a draft.', content: { [json]: Post } },
      ...problemResponses({
        ...decisionProblems,
        validation_failed: '`comment` missing or blank',
      }),
    },
  },
});
