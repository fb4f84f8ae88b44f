import { ProblemError, problem } from '@postwave/shared';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cookie-authenticated requests that change something must come from our own pages. Browsers
 * send Sec-Fetch-Site and Origin on such requests; a request carrying neither is refused too, so
 * a missing header can never stand in for a matching one.
 */
export function assertSameOrigin(request: Request, appUrl: string): void {
  if (safeMethods.has(request.method)) return;
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) {
    if (site === 'same-origin') return;
    throw crossOrigin();
  }
  const origin = request.headers.get('origin');
  if (origin !== null && allowedOrigins(request, appUrl).has(origin)) return;
  throw crossOrigin();
}

/**
 * For unauthenticated requests that start a session (sign-up): a browser on another site must not
 * sign its visitor into an account of the attacker's choosing. Clients that are not browsers send
 * neither header and pass.
 */
export function assertNotCrossSite(request: Request, appUrl: string): void {
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') throw crossOrigin();
  const origin = request.headers.get('origin');
  if (origin !== null && !allowedOrigins(request, appUrl).has(origin)) throw crossOrigin();
}

function allowedOrigins(request: Request, appUrl: string): Set<string> {
  const allowed = new Set([new URL(appUrl).origin]);
  // The origin the request itself was sent to (Host header); an attacker's page cannot make a
  // victim's browser send a matching Origin for it.
  const host = request.headers.get('host');
  if (host) {
    const proto =
      request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() ??
      new URL(request.url).protocol.replace(':', '');
    allowed.add(`${proto}://${host}`);
  }
  return allowed;
}

function crossOrigin(): ProblemError {
  return new ProblemError(
    problem('forbidden', 'Cross-origin requests with a session cookie are not allowed'),
  );
}
