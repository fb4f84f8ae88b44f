import { malformedRequestTarget } from '@postwave/shared/http/json-input';
import { apiContentSecurityPolicy, baselineSecurityHeaders } from '@postwave/shared/http/security-headers';
import { methodNotAllowedProblem, problem } from '@postwave/shared/problems';
import { allowedMethods } from './allowed-methods.ts';
import { problemResponse } from './respond.ts';

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * For the routes web/proxy.ts leaves out because they receive large bodies (uploads): when the
 * proxy runs, Next buffers the request body for it and passes on only its first
 * `proxyClientMaxBodySize` bytes (10 MiB), so a bigger upload would arrive cut short. These
 * routes do what the proxy does for every other one: refuse a malformed URL, and set the
 * security headers.
 */
export function outsideProxy<C>(headers: Readonly<Record<string, string>>, handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    const url = new URL(request.url);
    const response = malformedRequestTarget(request.url.slice(url.origin.length))
      ? problemResponse(problem('invalid_request', 'The URL has malformed percent-encoding or a NUL'))
      : await handler(request, context);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  };
}

/** What the proxy sets on API answers. */
export const apiSecurityHeaders: Readonly<Record<string, string>> = {
  ...baselineSecurityHeaders,
  'content-security-policy': apiContentSecurityPolicy,
};

/**
 * Handlers for the methods a route outside the proxy does not serve, exported beside the ones it
 * does: a request with a body skips the proxy there (see web/proxy.ts's matcher), so without them
 * Next would answer such a method with an empty 405. They answer the proxy's 405 problem and
 * `Allow`, from the same map. The route registry test knows them by this function's name.
 */
export function refusedOutsideProxy(
  headers: Readonly<Record<string, string>>,
  pathname: string,
): Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS', Handler<unknown>> {
  const allow = allowedMethods(pathname) ?? ['OPTIONS'];
  const refuse = outsideProxy<unknown>(headers, async (request) =>
    problemResponse(methodNotAllowedProblem(request.method, new URL(request.url).pathname, allow), {
      allow: allow.join(', '),
    }),
  );
  // Next's own OPTIONS would list every exported method, these refusals too.
  const options = outsideProxy<unknown>(
    headers,
    async () => new Response(null, { status: 204, headers: { allow: allow.join(', ') } }),
  );
  return { GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse, OPTIONS: options };
}
