import { ProblemError, problem } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { authenticateToken } from '#server/tokens/service.ts';
import { sessionUser } from '#server/users/get-user.ts';
import { boundWorkspace, sessionWorkspace } from '#server/workspaces/membership.ts';
import { assertSameOrigin } from './same-origin.ts';
import { sessionClaims } from './session.ts';

/** Who acts: a member themselves, or an MCP assistant with the role of the member who granted it. */
export interface Actor {
  type: 'member' | 'assistant';
  userId: string;
  name: string;
}

/**
 * Who is calling and in which workspace (docs/workspaces.md): a signed-in browser (its current
 * workspace) or a bearer token (the workspace it was bound to at creation). `role` is the
 * member's role there, read on every request, so a removal or demotion applies at once.
 */
export interface Caller {
  userId: string;
  workspaceId: string;
  role: WorkspaceRole;
  actor: Actor;
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
    const membership = await boundWorkspace(ctx, found.userId, found.workspaceId);
    if (!membership) throw unauthorized('The token’s workspace membership has ended', 'invalid_token');
    return {
      userId: found.userId,
      workspaceId: found.workspaceId,
      role: membership.role,
      actor: { type: 'member', userId: found.userId, name: found.userName },
      via: 'token',
      tokenId: found.tokenId,
    };
  }
  const claims = await sessionClaims(request, ctx.config);
  const user = claims ? await sessionUser(ctx, claims.userId, claims.authTime) : undefined;
  if (!claims || !user) throw unauthorized('Sign in or send a bearer token');
  assertSameOrigin(request, ctx.config.appUrl);
  const { workspace, role } = await sessionWorkspace(ctx, claims.userId, claims.workspaceId);
  return {
    userId: claims.userId,
    workspaceId: workspace.id,
    role,
    actor: { type: 'member', userId: claims.userId, name: user.name ?? user.email },
    via: 'session',
  };
}

function unauthorized(detail: string, error?: string): ProblemError {
  const challenge = error ? `Bearer realm="postwave", error="${error}"` : 'Bearer realm="postwave"';
  return new ProblemError(problem('unauthorized', detail), { 'WWW-Authenticate': challenge });
}

/**
 * An expired token is `unauthorized` like any other refused one (contract B); its challenge says it
 * expired (RFC 6750 `error_description`), so a client can tell "sign in again" from "never valid".
 */
function expired(): ProblemError {
  return new ProblemError(
    problem(
      'unauthorized',
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
