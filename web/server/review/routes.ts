import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import {
  Comment,
  CreatedReviewLink,
  CreateReviewLinkRequest,
  ReviewCommentRequest,
  ReviewDecisionRequest,
  ReviewLinkList,
  ReviewPage,
} from './schema.ts';

const tokenParam = {
  name: 'token',
  in: 'path' as const,
  description: 'The `pwr_…` token from the review url.',
  schema: z.string(),
};
const linkGone = {
  not_found: 'unknown, revoked or expired link (all answer alike)',
  rate_limited: 'more than 30 requests a minute for this link, or 120 from this address',
};

export const reviewRoutes = defineApiRoutes({
  createReviewLink: {
    method: 'post',
    path: '/api/v1/posts/{id}/review-links',
    auth: 'caller',
    permission: 'posts.approve',
    operationId: 'createReviewLink',
    summary: 'Create a client review link for a post',
    description:
      'A link for someone without an account (a client): the post per account, its comments, and, when `allowDecision` and the post is `pending_approval`, approve or request changes under a typed name. The url carries a random 256-bit token stored only as its SHA-256: it is in this answer once. Editors and up create links, since a link may approve.',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: CreateReviewLinkRequest } },
    responses: {
      201: { description: 'The link (its url shown once).', content: { [json]: CreatedReviewLink } },
      ...problemResponses({ ...unauthorized, ...notFound, validation_failed: 'expiresInHours not 1–720' }),
    },
  },
  listReviewLinks: {
    method: 'get',
    path: '/api/v1/posts/{id}/review-links',
    auth: 'caller',
    permission: 'read',
    operationId: 'listReviewLinks',
    summary: "A post's review links (never their tokens)",
    parameters: [idParam('post')],
    responses: {
      200: { description: 'Newest first, with their state.', content: { [json]: ReviewLinkList } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  revokeReviewLink: {
    method: 'delete',
    path: '/api/v1/posts/{id}/review-links/{linkId}',
    auth: 'caller',
    permission: 'posts.approve',
    operationId: 'revokeReviewLink',
    summary: 'Revoke a review link at once',
    parameters: [idParam('post'), { ...idParam('review link'), name: 'linkId' }],
    responses: {
      204: { description: 'Revoked.' },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  getReview: {
    method: 'get',
    path: '/api/v1/review/{token}',
    auth: 'public',
    operationId: 'getReview',
    summary: 'What a client sees through a review link (no sign-in)',
    description: 'The post per account and its comments: no results, no credentials, no other posts.',
    parameters: [tokenParam],
    responses: {
      200: { description: 'The review page.', content: { [json]: ReviewPage } },
      ...problemResponses(linkGone),
    },
  },
  addReviewComment: {
    method: 'post',
    path: '/api/v1/review/{token}/comments',
    auth: 'public',
    operationId: 'addReviewComment',
    summary: 'Comment through a review link under a typed name',
    parameters: [tokenParam],
    requestBody: { content: { [json]: ReviewCommentRequest } },
    responses: {
      201: { description: 'The comment (`author.type: "reviewer"`).', content: { [json]: Comment } },
      ...problemResponses({ ...linkGone, validation_failed: '`name` (1–100) or `body` (1–5000) missing' }),
    },
  },
  reviewDecision: {
    method: 'post',
    path: '/api/v1/review/{token}/decision',
    auth: 'public',
    operationId: 'reviewDecision',
    summary: 'Approve or request changes through a review link',
    description:
      '`approve` performs the requested action exactly as `POST /api/v1/posts/{id}/approve` (the same race rule: the post goes out once); `reject` sends the post back to draft and needs a `comment`. Only for links with `allowDecision` and a `pending_approval` post.',
    parameters: [tokenParam],
    requestBody: { content: { [json]: ReviewDecisionRequest } },
    responses: {
      200: { description: "The post's status after the decision." },
      ...problemResponses({
        ...linkGone,
        invalid_status: 'not waiting for approval, decided meanwhile, or a comments-only link',
        scheduled_time_passed: 'the requested time has passed (a member picks a new one)',
        validation_failed: '`name`, `decision`, or a rejection without `comment`',
      }),
    },
  },
});
