import { AccountsResponse } from '@postwave/shared';
import { problemResponses, type RouteSpec } from '@postwave/shared/openapi/index';
import { type ApiAuth, internal, requestIdHeader, unauthorized } from './common.ts';

/** The accounts of the accounts file (never their credentials). */
export const accountRoutes = {
  listAccounts: {
    method: 'get',
    path: '/api/v1/accounts',
    auth: 'apiKey',
    operationId: 'listAccounts',
    summary: 'List the accounts of the accounts file',
    description: 'Without credentials. An empty list when no accounts file is configured.',
    tags: ['Accounts'],
    responses: {
      200: {
        description: 'The accounts.',
        headers: requestIdHeader,
        content: { 'application/json': AccountsResponse },
      },
      ...problemResponses({ ...unauthorized, ...internal }),
    },
  },
} satisfies Record<string, RouteSpec<ApiAuth>>;
