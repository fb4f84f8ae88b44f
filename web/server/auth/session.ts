import { encode, getToken } from 'next-auth/jwt';
import type { SchedulerConfig } from '../config.ts';

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
  if (!request.headers.get('cookie')) return undefined;
  const token = await getToken({
    req: request,
    secret: config.authSecret,
    secureCookie: secureCookiesFor(config),
    cookieName: sessionCookieName(config),
    logger: { error() {}, warn() {}, debug() {} } as never,
  });
  return typeof token?.sub === 'string' ? token.sub : undefined;
}

/** A Set-Cookie header value for a fresh session, exactly as Auth.js would have issued it. */
export async function sessionCookie(
  config: SchedulerConfig,
  user: { id: string; email: string; name: string | null },
): Promise<string> {
  const name = sessionCookieName(config);
  const value = await encode({
    token: { sub: user.id, email: user.email, name: user.name },
    secret: config.authSecret,
    salt: name,
    maxAge: sessionMaxAgeSeconds,
  });
  const expires = new Date(Date.now() + sessionMaxAgeSeconds * 1000).toUTCString();
  const secure = secureCookiesFor(config) ? '; Secure' : '';
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secure}`;
}
