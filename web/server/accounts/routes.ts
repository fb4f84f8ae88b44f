import { problemResponses } from '@postwave/shared/openapi/index';
import { z } from 'zod';
import { idParam, json, notFound, unauthorized } from '#server/api/common.ts';
import { defineApiRoutes } from '#server/http/route.ts';
import { AccountList, ConnectAccountRequest, ConnectedAccount, RenameAccountRequest } from './schema.ts';

const platformParam = {
  name: 'platform',
  in: 'path' as const,
  description: 'A platform whose manifest says it connects through OAuth.',
  schema: z.string(),
};

export const accountsRoutes = defineApiRoutes({
  listAccounts: {
    method: 'get',
    path: '/api/v1/accounts',
    auth: 'caller',
    operationId: 'listAccounts',
    summary: 'The user’s connected accounts',
    responses: {
      200: { description: 'Accounts.', content: { [json]: AccountList } },
      ...problemResponses(unauthorized),
    },
  },
  connectAccount: {
    method: 'post',
    path: '/api/v1/accounts',
    auth: 'caller',
    operationId: 'connectAccount',
    summary: 'Connect a credential-based account after the platform verifies the credentials',
    description:
      'Problem `code` is `credentials_invalid` or `target_unreachable` (422) when the platform refuses.',
    requestBody: { content: { [json]: ConnectAccountRequest } },
    responses: {
      201: { description: 'Connected.', content: { [json]: ConnectedAccount } },
      200: {
        description: 'Already connected: credentials and profile updated.',
        content: { [json]: ConnectedAccount },
      },
      ...problemResponses({
        ...unauthorized,
        invalid_request: 'wrong types',
        validation_failed: 'credentials refused or target unreachable',
        publish_failed: 'the platform could not be reached',
      }),
    },
  },
  getAccount: {
    method: 'get',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    operationId: 'getAccount',
    summary: 'One connected account',
    parameters: [idParam('account')],
    responses: {
      200: { description: 'The account.', content: { [json]: ConnectedAccount } },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  renameAccount: {
    method: 'patch',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    operationId: 'renameAccount',
    summary: 'Rename an account',
    parameters: [idParam('account')],
    requestBody: { content: { [json]: RenameAccountRequest } },
    responses: {
      200: { description: 'Renamed.', content: { [json]: ConnectedAccount } },
      ...problemResponses({ ...unauthorized, ...notFound, invalid_request: 'wrong types' }),
    },
  },
  disconnectAccount: {
    method: 'delete',
    path: '/api/v1/accounts/{id}',
    auth: 'caller',
    operationId: 'disconnectAccount',
    summary:
      'Disconnect an account; unposted posts lose it as a target, a post left without targets becomes a draft',
    parameters: [idParam('account')],
    responses: {
      204: { description: 'Disconnected.' },
      ...problemResponses({ ...unauthorized, ...notFound }),
    },
  },
  startOAuthConnect: {
    method: 'get',
    path: '/api/v1/accounts/connect/{platform}',
    auth: 'caller',
    operationId: 'startOAuthConnect',
    summary: 'Browser redirect to the platform’s consent screen',
    parameters: [platformParam],
    responses: {
      302: { description: 'To the platform’s consent screen (state bound to the user, PKCE S256).' },
      ...problemResponses({
        ...unauthorized,
        not_found: 'no OAuth connector for this platform',
        not_supported: 'the platform’s OAuth client is not configured on this server',
      }),
    },
  },
  finishOAuthConnect: {
    method: 'get',
    path: '/api/v1/accounts/connect/{platform}/callback',
    auth: 'caller',
    operationId: 'finishOAuthConnect',
    summary: 'Where the platform sends the browser back; saves the account',
    description:
      'Always redirects to `/accounts`: with `connected=<account id>` on success, or `error` and `message`.',
    parameters: [
      platformParam,
      { name: 'code', in: 'query', schema: z.string() },
      { name: 'state', in: 'query', schema: z.string() },
    ],
    responses: {
      302: { description: 'Back to the accounts page with the outcome.' },
      ...problemResponses({ ...unauthorized, not_found: 'no OAuth connector for this platform' }),
    },
  },
});
