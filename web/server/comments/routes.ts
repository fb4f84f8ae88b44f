import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { Comment, CommentList, CreateCommentRequest } from './schema.ts';

export const commentsRoutes = defineApiRoutes({
  listPostComments: {
    method: 'get',
    path: '/api/v1/posts/{id}/comments',
    auth: 'caller',
    permission: 'read',
    operationId: 'listPostComments',
    summary: "The post's comments, oldest first",
    description:
      'Comments by members and by reviewers who commented through a review link (`author.type: "reviewer"`, under the name they typed).',
    parameters: [idParam('post')],
    responses: {
      200: { description: 'The comments.', content: { [json]: CommentList } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  createPostComment: {
    method: 'post',
    path: '/api/v1/posts/{id}/comments',
    auth: 'caller',
    permission: 'posts.draft',
    operationId: 'createPostComment',
    summary: 'Comment on a post',
    description:
      'Owners, admins and editors comment on any post of the workspace, contributors on their own posts only (403 `forbidden`, `requiredRole: "editor"`), viewers not at all (403, `requiredRole: "contributor"`).',
    parameters: [idParam('post')],
    requestBody: { content: { [json]: CreateCommentRequest } },
    responses: {
      201: { description: 'The comment.', content: { [json]: Comment } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        forbidden: 'a viewer, or a contributor on another member’s post (`requiredRole`)',
        invalid_request: 'malformed JSON, or `body` not a string',
        validation_failed: '`body` missing, empty or over 5000 characters',
      }),
    },
  },
});
