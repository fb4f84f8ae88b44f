import { problemResponses } from '@postwave/shared/openapi/index';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { CreatedToken, CreateTokenRequest, TokenList } from './schema.ts';

export const tokensRoutes = defineApiRoutes({
  listTokens: {
    method: 'get',
    path: '/api/v1/tokens',
    auth: 'caller',
    permission: 'self',
    operationId: 'listTokens',
    summary: 'List personal and CLI tokens (never the secrets)',
    responses: {
      200: { description: 'Tokens.', content: { [json]: TokenList } },
      ...problemResponses(unauthorized),
    },
  },
  createToken: {
    method: 'post',
    path: '/api/v1/tokens',
    auth: 'session',
    permission: 'self',
    operationId: 'createToken',
    summary: 'Create a personal API token (browser session only); the secret is shown once',
    description:
      'Every personal token expires: `expiresInDays` is a whole number of days from 1 to 365 (90 by default), so no token lives longer than a year. A password reset revokes every token of the user.',
    requestBody: { content: { [json]: CreateTokenRequest } },
    responses: {
      201: { description: 'Created.', content: { [json]: CreatedToken } },
      ...problemResponses({
        ...unauthorized,
        forbidden: 'not a same-origin browser session',
        invalid_request: 'a field of the wrong type',
        validation_failed: 'an empty or too long name, or `expiresInDays` outside 1 to 365',
      }),
    },
  },
  revokeToken: {
    method: 'delete',
    path: '/api/v1/tokens/{id}',
    auth: 'caller',
    permission: 'self',
    operationId: 'revokeToken',
    summary: 'Revoke a token',
    parameters: [idParam('token')],
    responses: { 204: { description: 'Revoked.' }, ...problemResponses({ ...unauthorized, ...notFound }) },
  },
});
