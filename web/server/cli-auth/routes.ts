import { Problem, problemContentType } from '@postwave/shared';
import { problemResponses } from '@postwave/shared/openapi/index';
import { json, redirectResponse, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { CliExchangeRequest, CliTokenResponse, WhoAmI } from './schema.ts';

export const cliAuthRoutes = defineApiRoutes({
  startCliAuthorization: {
    method: 'get',
    path: '/api/cli/authorize',
    auth: 'public',
    operationId: 'startCliAuthorization',
    summary: 'Browser step of `postwave login`: checks the CLI’s parameters, then the approval page',
    responses: {
      ...redirectResponse('To sign-in, then the approval page.'),
      400: {
        description:
          '`invalid_request`: bad redirect_uri, state or code_challenge. A browser (`Accept: text/html`) gets an HTML page saying what is wrong and to run `postwave login` again; the approval page `/cli/authorize` sends such a link back here.',
        content: { [problemContentType]: Problem, 'text/html': { type: 'string' } },
      },
    },
  },
  exchangeCliCode: {
    method: 'post',
    path: '/api/cli/authorize',
    auth: 'public',
    operationId: 'exchangeCliCode',
    summary: 'Trade the single-use code and its PKCE verifier for a CLI token',
    requestBody: { content: { [json]: CliExchangeRequest } },
    responses: {
      200: { description: 'The CLI token.', content: { [json]: CliTokenResponse } },
      ...problemResponses({
        invalid_request: 'wrong types',
        validation_failed: 'unknown, used or expired code, or the verifier does not match',
      }),
    },
  },
  decideCliAuthorization: {
    method: 'post',
    path: '/api/cli/authorize/decision',
    auth: 'public',
    operationId: 'decideCliAuthorization',
    summary: 'The approval form (same-origin browser session): approve or deny the CLI',
    responses: {
      ...redirectResponse('To the CLI’s loopback address with a code, or `error=access_denied`.'),
      ...problemResponses({
        unsupported_media_type: 'not a form',
        forbidden: 'not same-origin',
      }),
    },
  },
  whoAmI: {
    method: 'get',
    path: '/api/cli/whoami',
    auth: 'caller',
    permission: 'self',
    operationId: 'whoAmI',
    summary: 'The caller’s user and, for a bearer token, which token it is (`postwave whoami`)',
    responses: {
      200: { description: 'Who is calling.', content: { [json]: WhoAmI } },
      ...problemResponses(unauthorized),
    },
  },
});
