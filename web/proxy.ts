import {
  apiContentSecurityPolicy,
  baselineSecurityHeaders,
  pageContentSecurityPolicy,
} from '@postwave/shared/http/security-headers';
import { type NextRequest, NextResponse } from 'next/server';

/**
 * Section D's headers on every response but static assets and /media (which sends its own
 * sandbox policy). Pages get a fresh nonce per request: Next reads it from the request's
 * Content-Security-Policy and puts it on its inline scripts (the root layout renders dynamically
 * for that reason). API answers get a policy under which nothing loads.
 */
export function proxy(request: NextRequest): NextResponse {
  const { pathname } = request.nextUrl;
  const isApi = pathname.startsWith('/api/') || pathname === '/mcp' || pathname.startsWith('/.well-known/');
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
  matcher: [
    {
      source: '/((?!_next/static|_next/image|media/|favicon.ico).*)',
    },
  ],
};
