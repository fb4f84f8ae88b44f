import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { CreateSnippetRequest, Snippet, SnippetList, UpdateSnippetRequest } from './schema.ts';

/** Contract B: a body of the wrong shape is 400, a well-typed one breaking a rule 422 (`schemaProblem`). */
const wrongShape =
  'not JSON, or a field is missing or of the wrong type (`errors[].path` names it: `name`, `kind`, `body`, `defaultFor`)';

const invalid =
  'a well-typed value breaks a rule (`errors[].path` names it: an empty `name` or `body`, an unknown `kind`, …), `defaultFor` names an account that is not the workspace’s (`account_not_found`), or a snippet that is not a signature is given defaults (`default_needs_signature`)';

const about =
  'Snippets are text the composer inserts on request: signatures, hashtag groups and other text. A signature may be the default of some accounts: the composer inserts it, visibly and removably, when such an account is picked. The API itself never adds a snippet’s text to a post. Every member reads snippets; owners and admins change them.';

export const snippetsRoutes = defineApiRoutes({
  listSnippets: {
    method: 'get',
    path: '/api/v1/snippets',
    auth: 'caller',
    permission: 'read',
    operationId: 'listSnippets',
    summary: 'The workspace’s snippets, by kind and name',
    description: about,
    responses: {
      200: { description: 'Snippets.', content: { [json]: SnippetList } },
      ...problemResponses(unauthorized),
    },
  },
  createSnippet: {
    method: 'post',
    path: '/api/v1/snippets',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'createSnippet',
    summary: 'Create a snippet',
    description: `${about} An account has at most one default signature: naming it in \`defaultFor\` moves it here from the signature that had it.`,
    requestBody: { content: { [json]: CreateSnippetRequest } },
    responses: {
      201: { description: 'Created.', content: { [json]: Snippet } },
      ...problemResponses({ ...unauthorized, invalid_request: wrongShape, validation_failed: invalid }),
    },
  },
  updateSnippet: {
    method: 'patch',
    path: '/api/v1/snippets/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'updateSnippet',
    summary: 'Change a snippet (posts that used it do not change)',
    description:
      'A `defaultFor` given replaces the list; its accounts move here from the signature that had them. Turning a signature with defaults into another kind needs `defaultFor: []` in the same request.',
    parameters: [idParam('snippet')],
    requestBody: { content: { [json]: UpdateSnippetRequest } },
    responses: {
      200: { description: 'The snippet.', content: { [json]: Snippet } },
      ...problemResponses({
        ...unauthorized,
        ...notFound,
        invalid_request: wrongShape,
        validation_failed: invalid,
      }),
    },
  },
  deleteSnippet: {
    method: 'delete',
    path: '/api/v1/snippets/{id}',
    auth: 'caller',
    permission: 'workspace.manage',
    operationId: 'deleteSnippet',
    summary: 'Delete a snippet; text already in posts stays',
    parameters: [idParam('snippet')],
    responses: { 204: { description: 'Deleted.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  },
});
