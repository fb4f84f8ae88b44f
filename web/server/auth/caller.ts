import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { authenticateToken } from '#server/tokens/service.ts';
import { sessionUser } from '#server/users/service.ts';
import { assertSameOrigin } from './same-origin.ts';
import { sessionClaims } from './session.ts';

/** Who is calling: a signed-in browser, or a bearer token (personal, CLI, later MCP OAuth). */
export interface Caller {
  userId: string;
  via: 'session' | 'token';
  tokenId?: string;
}

export interface AuthOptions {
  /** Only a browser session will do (e.g. issuing tokens). */
  sessionOnly?: boolean;
}

/**
 * Authenticates an /api/v1 request: `Authorization: Bearer` first, then the session cookie.
 * Session requests that change something must be same-origin.
 */
export async function requireCaller(
  request: Request,
  ctx: AppContext,
  options: AuthOptions = {},
): Promise<Caller> {
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    if (options.sessionOnly) throw forbidden('This action needs a signed-in browser session');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const found = match ? await authenticateToken(ctx, match[1]!) : undefined;
    if (found?.ok === false && found.reason === 'expired') throw expired();
    if (!found?.ok) throw unauthorized('The bearer token is invalid or revoked', 'invalid_token');
    return { userId: found.userId, via: 'token', tokenId: found.tokenId };
  }
  const claims = await sessionClaims(request, ctx.config);
  if (!claims || !(await sessionUser(ctx, claims.userId, claims.authTime)))
    throw unauthorized('Sign in or send a bearer token');
  assertSameOrigin(request, ctx.config.appUrl);
  return { userId: claims.userId, via: 'session' };
}

function unauthorized(detail: string, error?: string): ProblemError {
  const challenge = error ? `Bearer realm="postwave", error="${error}"` : 'Bearer realm="postwave"';
  return new ProblemError(problem('unauthorized', detail), { 'WWW-Authenticate': challenge });
}

function expired(): ProblemError {
  return new ProblemError(
    problem(
      'token_expired',
      'The bearer token has expired: create a new one in Settings, or run `postwave login` again',
    ),
    {
      'WWW-Authenticate':
        'Bearer realm="postwave", error="invalid_token", error_description="The token expired"',
    },
  );
}

function forbidden(detail: string): ProblemError {
  return new ProblemError(problem('forbidden', detail));
}
