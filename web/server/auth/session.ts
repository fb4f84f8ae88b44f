import { decode, encode, getToken } from 'next-auth/jwt';
import type { SchedulerConfig } from '#server/config.ts';

/** Auth.js's own session lifetime, which the sign-up cookie matches. */
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60;

export function secureCookiesFor(config: SchedulerConfig): boolean {
  return config.appUrl.startsWith('https:');
}

export function sessionCookieName(config: SchedulerConfig): string {
  return secureCookiesFor(config) ? '__Secure-authjs.session-token' : 'authjs.session-token';
}

/** The signed-in user's id from the Auth.js JWT session cookie, if any. */
export async function sessionUserId(request: Request, config: SchedulerConfig): Promise<string | undefined> {
  return (await sessionClaims(request, config))?.userId;
}

export interface SessionClaims {
  userId: string;
  /** When the user signed in (ms since the epoch); sessions from before a password reset are refused. */
  authTime: number | undefined;
  /**
   * The workspace this browser session acts in (docs/workspaces.md#switching): set at sign-in and
   * by a switch in this browser, so another browser's switch does not move it. Absent in sessions
   * issued before it was kept: those act in the user's last chosen workspace.
   */
  workspaceId: string | undefined;
}

/**
 * Whether a session that began at `authTime` is still accepted for a user whose sessions are only
 * valid after `validAfter` (set by a password reset). Sessions without a sign-in time predate the
 * claim and count as older than any reset.
 */
export function sessionIsCurrent(authTime: unknown, validAfter: Date | null): boolean {
  if (!validAfter) return true;
  return typeof authTime === 'number' && authTime >= validAfter.getTime();
}

/** The user id and sign-in time from the Auth.js JWT session cookie, if any. */
export async function sessionClaims(
  request: Request,
  config: SchedulerConfig,
): Promise<SessionClaims | undefined> {
  if (!request.headers.get('cookie')) return undefined;
  const token = await getToken(tokenReader(request, config));
  if (typeof token?.sub !== 'string') return undefined;
  return {
    userId: token.sub,
    authTime: typeof token.authTime === 'number' ? token.authTime : undefined,
    workspaceId: typeof token.workspaceId === 'string' ? token.workspaceId : undefined,
  };
}

/** A Set-Cookie header value for a fresh session, exactly as Auth.js would have issued it. */
export async function sessionCookie(
  config: SchedulerConfig,
  user: { id: string; email: string; name: string | null },
  workspaceId?: string,
): Promise<string> {
  const token = { sub: user.id, email: user.email, name: user.name, authTime: Date.now(), workspaceId };
  return setCookieHeader(config, await encodeSession(config, token));
}

/**
 * A browser session's cookie value (`raw`, as the browser sent it) re-issued to act in
 * `workspaceId`, every other claim kept (the user, the sign-in time a password reset checks);
 * undefined when `raw` is not a session of ours.
 */
export async function sessionValueIn(
  config: SchedulerConfig,
  raw: string | undefined,
  workspaceId: string,
): Promise<string | undefined> {
  if (!raw) return undefined;
  const token = await decode({
    token: raw,
    secret: config.authSecret,
    salt: sessionCookieName(config),
  }).catch(() => null);
  if (typeof token?.sub !== 'string') return undefined;
  return encodeSession(config, { ...token, workspaceId });
}

/** A Set-Cookie header re-issuing `request`'s session to act in `workspaceId` (see `sessionValueIn`); undefined without one. */
export async function sessionCookieIn(
  config: SchedulerConfig,
  request: Request,
  workspaceId: string,
): Promise<string | undefined> {
  // Read as `sessionClaims` reads it (Auth.js's own cookie reader, chunked cookies included).
  const raw = request.headers.get('cookie')
    ? await getToken({ ...tokenReader(request, config), raw: true })
    : undefined;
  const value = await sessionValueIn(config, raw || undefined, workspaceId);
  return value ? setCookieHeader(config, value) : undefined;
}

/** The cookie's attributes, as Auth.js sets them for its session (for `cookies().set` in a server action). */
export function sessionCookieOptions(config: SchedulerConfig) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: secureCookiesFor(config),
    expires: new Date(Date.now() + sessionMaxAgeSeconds * 1000),
  };
}

function encodeSession(config: SchedulerConfig, token: Record<string, unknown>): Promise<string> {
  return encode({
    token,
    secret: config.authSecret,
    salt: sessionCookieName(config),
    maxAge: sessionMaxAgeSeconds,
  });
}

function setCookieHeader(config: SchedulerConfig, value: string): string {
  const expires = new Date(Date.now() + sessionMaxAgeSeconds * 1000).toUTCString();
  const secure = secureCookiesFor(config) ? '; Secure' : '';
  return `${sessionCookieName(config)}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure}`;
}

/** How the session cookie is found and read in a request (quietly: a bad cookie is no session). */
function tokenReader(request: Request, config: SchedulerConfig) {
  return {
    req: request,
    secret: config.authSecret,
    secureCookie: secureCookiesFor(config),
    cookieName: sessionCookieName(config),
    logger: { error() {}, warn() {}, debug() {} } as never,
  };
}
