import { z } from 'zod';

/** Problem descriptions several routes share. */
export const unauthorized = {
  unauthorized:
    'no session cookie and no valid `Authorization: Bearer` token. A bearer token that has expired (personal tokens at the end of the lifetime chosen at creation, CLI tokens 90 days after their last use) is refused with `WWW-Authenticate: Bearer error="invalid_token", error_description="The token expired"`',
} as const;
export const notFound = {
  not_found: 'no such resource for this user (another user’s ids are 404 too)',
} as const;

/** A publish refused while the server drains (web/server/lifecycle/shutdown.ts); nothing was stored. */
export const shuttingDown = {
  unavailable:
    'the server is shutting down; nothing was published (`Retry-After` says when to send it again)',
} as const;

export const json = 'application/json';

export const idParam = (what: string) => ({
  name: 'id',
  in: 'path' as const,
  description: `The ${what} id.`,
  schema: z.string(),
});

/** A CORS preflight answered for browser-based OAuth and MCP clients; not an API operation. */
export const preflightRoute = (path: string, operationId: string) => ({
  method: 'options' as const,
  path,
  auth: 'public' as const,
  undocumented: true,
  operationId,
  summary: 'CORS preflight',
  responses: { 204: { description: 'Allowed.' } },
});

/** A redirect-based step of a browser flow: always 303 See Other (`redirect` in cli-auth/session.ts). */
export const redirectResponse = (description: string) => ({ 303: { description } });
