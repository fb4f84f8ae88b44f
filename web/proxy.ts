import { malformedRequestTarget } from '@postwave/shared/http/json-input';
import {
  apiContentSecurityPolicy,
  baselineSecurityHeaders,
  pageContentSecurityPolicy,
} from '@postwave/shared/http/security-headers';
import { problem } from '@postwave/shared/problems';
import { type NextRequest, NextResponse } from 'next/server';

/**
 * Runs before every route but static assets:
 * - a URL with malformed percent-encoding or an encoded NUL is 400 before any handler decodes it;
 * - section D's headers. Pages get a fresh nonce per request: Next reads it from the request's
 *   Content-Security-Policy and puts it on its inline scripts (the root layout renders per request
 *   for that reason). API answers get a policy under which nothing loads. /media sends its own
 *   sandbox policy.
 */
export function proxy(request: NextRequest): NextResponse {
  const target = request.url.slice(request.nextUrl.origin.length);
  if (malformedRequestTarget(target))
    return problemResponse(
      problem('invalid_request', 'The URL has malformed percent-encoding or a NUL'),
      400,
    );
  const { pathname } = request.nextUrl;
  if (pathname.startsWith('/media/')) return NextResponse.next();
  const isApi = pathname.startsWith('/api/') || pathname === '/mcp' || pathname.startsWith('/.well-known/');
  // Pages only read. The app has no server actions, and Next answers a POST to a page (taken for
  // one) with a 500, so anything but GET and HEAD on a page is refused here.
  if (!isApi && request.method !== 'GET' && request.method !== 'HEAD') {
    return problemResponse(
      {
        type: 'https://postwave.dev/problems/method-not-allowed',
        title: 'Method not allowed',
        detail: `${request.method} is not allowed on ${pathname}`,
        code: 'method_not_allowed',
      },
      405,
      { allow: 'GET, HEAD' },
    );
  }
  let policy = apiContentSecurityPolicy;
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

export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico).*)' }],
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
