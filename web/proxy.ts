import { malformedRequestTarget } from '@postwave/shared/http/json-input';
import {
  apiContentSecurityPolicy,
  baselineSecurityHeaders,
  mediaSandboxHeaders,
  pageContentSecurityPolicy,
} from '@postwave/shared/http/security-headers';
import { methodNotAllowedProblem, problem } from '@postwave/shared/problems';
import { type NextRequest, NextResponse } from 'next/server';
import { allowedMethods } from '#server/http/allowed-methods.ts';
import { errorPagePaths, errorPagePolicy } from '#server/http/error-page.ts';

/**
 * Runs before every route but static assets:
 * - a URL with malformed percent-encoding or an encoded NUL is 400 before any handler decodes it;
 * - a method the path's route file does not serve is a 405 problem with `Allow` (contract B), not
 *   Next's empty 405; pages answer only GET and HEAD (and their forms' server actions);
 * - the security headers (SECURITY.md, "Browser hardening"). Pages get a fresh nonce per
 *   request: Next reads it from the request's Content-Security-Policy and puts it on its inline
 *   scripts (the root layout renders per request for that reason). API answers get a policy under
 *   which nothing loads (the authorize routes' error card: only its inline style). /media sends
 *   its own sandbox policy; uploads are left out (`config`).
 */
export function proxy(request: NextRequest): NextResponse {
  const target = request.url.slice(request.nextUrl.origin.length);
  if (malformedRequestTarget(target))
    return problemResponse(
      problem('invalid_request', 'The URL has malformed percent-encoding or a NUL'),
      400,
    );
  const { pathname } = request.nextUrl;
  const allow = allowedMethods(pathname);
  if (allow && !allow.includes(request.method)) return methodNotAllowed(request.method, pathname, allow);
  if (pathname.startsWith('/media/')) {
    // The media route sets these on what it serves; a path it does not serve (Next's not-found
    // page) must not be an unsandboxed HTML page under /media either (contract D).
    const response = NextResponse.next();
    for (const [name, value] of Object.entries(mediaSandboxHeaders)) response.headers.set(name, value);
    return response;
  }
  const isApi = pathname.startsWith('/api/') || pathname === '/mcp' || pathname.startsWith('/.well-known/');
  // Pages only read, except the forms' server actions (POST with a Next-Action header). Next takes
  // any other POST to a page for a malformed action and answers 500, so it is refused here.
  const isServerAction = request.method === 'POST' && request.headers.has('next-action');
  // Next refuses a server action from another origin by throwing (a 500): refuse it here as a 403.
  if (isServerAction && !sameOriginAction(request)) {
    return problemResponse(problem('forbidden', 'Forms can only be submitted from this site'), 403);
  }
  if (!allow && !isApi && request.method !== 'GET' && request.method !== 'HEAD' && !isServerAction) {
    return methodNotAllowed(request.method, pathname, ['GET', 'HEAD']);
  }
  // The API reference (/docs, Scalar) sends its own policy: it loads /docs/scalar.js, which has no
  // nonce (the page is a static document, not a Next page), so the page policy would block it.
  if (pathname === '/docs' || pathname.startsWith('/docs/')) {
    const response = NextResponse.next();
    for (const [name, value] of Object.entries(baselineSecurityHeaders)) response.headers.set(name, value);
    return response;
  }
  // The authorize routes may answer a browser an HTML error card, styled inline.
  let policy = errorPagePaths.has(pathname) ? errorPagePolicy : apiContentSecurityPolicy;
  const requestHeaders = new Headers(request.headers);
  if (!isApi) {
    const nonce = btoa(crypto.randomUUID());
    policy = pageContentSecurityPolicy(nonce);
    requestHeaders.set('x-nonce', nonce);
    requestHeaders.set('content-security-policy', policy);
  }
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(baselineSecurityHeaders)) response.headers.set(name, value);
  response.headers.set('content-security-policy', policy);
  return response;
}

function methodNotAllowed(method: string, pathname: string, allow: readonly string[]): NextResponse {
  return problemResponse(methodNotAllowedProblem(method, pathname, allow), 405, { allow: allow.join(', ') });
}

/**
 * Not static assets, and not the routes that receive uploads (`POST /api/v1/upload`, the signed
 * `PUT /media/{key}?…&signature=` of a presign): while the proxy runs, Next buffers the request
 * body for it and hands the route only its first 10 MiB (`proxyClientMaxBodySize`), so a bigger
 * upload would arrive cut short. Those routes set their security headers themselves
 * (web/server/http/outside-proxy.ts). Reading /media still passes here, for the URL check, and so
 * does a request to the upload route without a body (GET, or any method with `Content-Length: 0`),
 * so that its unsupported methods get the 405 problem too; sent with a body, they reach the route
 * file, whose `refusedOutsideProxy` handlers answer the same problem.
 */
export const config = {
  matcher: [
    { source: '/((?!_next/static|_next/image|favicon.ico|media/|api/v1/upload$).*)' },
    { source: '/media/:path*', missing: [{ type: 'query', key: 'signature' }] },
    {
      source: '/api/v1/upload',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    {
      source: '/api/v1/upload',
      has: [{ type: 'header', key: 'content-length', value: '0' }],
      missing: [{ type: 'header', key: 'transfer-encoding' }],
    },
  ],
};

function problemResponse(body: object, status: number, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(JSON.stringify({ ...body, status }), {
    status,
    headers: {
      'content-type': 'application/problem+json',
      'content-security-policy': apiContentSecurityPolicy,
      ...baselineSecurityHeaders,
      ...headers,
    },
  });
}

/** Next's own rule for server actions: the Origin's host must be the request's (forwarded) host. */
function sameOriginAction(request: NextRequest): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const expected =
    request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  return host === expected;
}
