import { ProblemError, problem } from '@postwave/shared';
import type { Caller } from '#server/auth/caller.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import { hashSecret, newSecret, pkceChallenge, safeEqual } from '#server/security/tokens.ts';
import { cliTokenIdleLifetimeMs, createToken, describeToken } from '#server/tokens/service.ts';
import { getUser } from '#server/users/get-user.ts';
import { consumeCliCode, insertCliCode } from './repository.ts';
import type { WhoAmI } from './schema.ts';

/** Codes live five minutes and are used once. */
export const cliCodeLifetimeMs = 5 * 60 * 1000;

export interface CliAuthorizeParams {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  deviceName: string | undefined;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);
const challengePattern = /^[A-Za-z0-9_-]{43}$/;
const statePattern = /^[\x21-\x7e]{1,500}$/;

/** Only plain-http loopback URLs with an explicit port, no credentials and no fragment. */
export function isLoopbackRedirect(value: string): boolean {
  if (value.length > 2000) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    loopbackHosts.has(url.hostname) &&
    url.port !== '' &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    !value.includes('#')
  );
}

/** Checks the query of `GET /api/cli/authorize` (or the approval form); throws a 400 problem naming the field. */
export function parseCliAuthorizeParams(params: URLSearchParams): CliAuthorizeParams {
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!isLoopbackRedirect(redirectUri)) {
    throw badRequest(
      'redirect_uri must be a loopback URL such as http://127.0.0.1:<port>/callback (127.0.0.1, localhost or [::1])',
    );
  }
  const state = params.get('state') ?? '';
  if (!statePattern.test(state)) throw badRequest('state is required (1 to 500 printable characters)');
  if (params.get('code_challenge_method') !== 'S256') throw badRequest('code_challenge_method must be S256');
  const codeChallenge = params.get('code_challenge') ?? '';
  if (!challengePattern.test(codeChallenge))
    throw badRequest('code_challenge must be base64url(SHA-256(code_verifier)), 43 characters');
  const rawName = (params.get('device_name') ?? params.get('name') ?? '')
    .replace(/[\x00-\x1f\x7f]/g, '')
    .trim();
  return { redirectUri, state, codeChallenge, deviceName: rawName ? rawName.slice(0, 100) : undefined };
}

/** The query string that carries the parameters from the authorize URL to the approval page and form. */
export function cliParamsQuery(p: CliAuthorizeParams): string {
  const q = new URLSearchParams({
    redirect_uri: p.redirectUri,
    state: p.state,
    code_challenge: p.codeChallenge,
    code_challenge_method: 'S256',
  });
  if (p.deviceName) q.set('device_name', p.deviceName);
  return q.toString();
}

/** Where the browser goes after the user decides. */
export function loopbackRedirect(p: CliAuthorizeParams, result: Record<string, string>): string {
  const url = new URL(p.redirectUri);
  for (const [k, v] of Object.entries(result)) url.searchParams.set(k, v);
  url.searchParams.set('state', p.state);
  return url.toString();
}

/**
 * Approval: a single-use code bound to the user, the workspace they picked, the redirect URI and
 * the PKCE challenge.
 */
export async function issueCliCode(
  ctx: AppContext,
  userId: string,
  p: CliAuthorizeParams,
  workspaceId: string,
): Promise<string> {
  const code = newSecret('pwc_');
  const now = new Date();
  await insertCliCode(ctx, {
    codeHash: hashSecret(code),
    userId,
    workspaceId,
    redirectUri: p.redirectUri,
    codeChallenge: p.codeChallenge,
    deviceName: p.deviceName ?? null,
    expiresAt: new Date(now.getTime() + cliCodeLifetimeMs),
    createdAt: now,
  });
  return code;
}

/**
 * `POST /api/cli/authorize`: the code is marked used in the same statement that finds it, so two
 * concurrent exchanges cannot both win; a wrong verifier burns the code too.
 */
export async function exchangeCliCode(
  ctx: AppContext,
  code: string,
  codeVerifier: string,
): Promise<{ token: string; expiresAt: string; tokenId: string }> {
  const now = new Date();
  const row = await consumeCliCode(ctx, hashSecret(code), now);
  if (!row) throw invalidGrant('The code is invalid, expired or already used: run `postwave login` again');
  if (
    !/^[A-Za-z0-9._~-]{43,128}$/.test(codeVerifier) ||
    !safeEqual(pkceChallenge(codeVerifier), row.codeChallenge)
  ) {
    throw invalidGrant('The code_verifier does not match the code_challenge');
  }
  // 90 days from now, and from each later use (see authenticateToken).
  const expiresAt = new Date(now.getTime() + cliTokenIdleLifetimeMs);
  const created = await createToken(ctx, row.userId, {
    name: `CLI${row.deviceName ? `: ${row.deviceName}` : ''}`,
    kind: 'cli',
    workspaceId: row.workspaceId,
    expiresAt,
  });
  return { token: created.token, expiresAt: expiresAt.toISOString(), tokenId: created.id };
}

function badRequest(detail: string): ProblemError {
  return new ProblemError(problem('invalid_request', detail));
}

/** OAuth's `invalid_grant` as an issue of a 400: problem codes come only from the SDK's closed map. */
function invalidGrant(detail: string): ProblemError {
  return new ProblemError(
    problem('invalid_request', detail, {
      errors: [{ path: 'code', code: 'invalid_grant', message: detail }],
    }),
  );
}

/** `postwave whoami`: the caller's user and, for a bearer token, which token it is. */
export async function whoAmI(ctx: AppContext, caller: Caller): Promise<WhoAmI> {
  const user = await getUser(ctx, caller.userId);
  if (!user) throw notFound('user');
  const token = caller.tokenId ? await describeToken(ctx, caller.userId, caller.tokenId) : undefined;
  return { user: { id: user.id, email: user.email, name: user.name }, token: token ?? null };
}
