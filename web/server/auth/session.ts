import { encode, getToken } from 'next-auth/jwt';
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
  const token = await getToken({
    req: request,
    secret: config.authSecret,
    secureCookie: secureCookiesFor(config),
    cookieName: sessionCookieName(config),
    logger: { error() {}, warn() {}, debug() {} } as never,
  });
  if (typeof token?.sub !== 'string') return undefined;
  return { userId: token.sub, authTime: typeof token.authTime === 'number' ? token.authTime : undefined };
}

/** A Set-Cookie header value for a fresh session, exactly as Auth.js would have issued it. */
export async function sessionCookie(
  config: SchedulerConfig,
  user: { id: string; email: string; name: string | null },
): Promise<string> {
  const name = sessionCookieName(config);
  const value = await encode({
    token: { sub: user.id, email: user.email, name: user.name, authTime: Date.now() },
    secret: config.authSecret,
    salt: name,
    maxAge: sessionMaxAgeSeconds,
  });
  const expires = new Date(Date.now() + sessionMaxAgeSeconds * 1000).toUTCString();
  const secure = secureCookiesFor(config) ? '; Secure' : '';
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure}`;
}
