import type { HttpMethod, OpenApiDocument, OperationSpec } from './document.ts';

/**
 * One route of an HTTP API, declared once: the adapter wires its handler from it and the OpenAPI
 * document lists it. `auth` names how the caller proves who they are; each adapter maps its auth
 * names to OpenAPI security requirements (and to the middleware that enforces them).
 */
export interface RouteSpec<Auth extends string = string> extends OperationSpec {
  method: HttpMethod;
  /** OpenAPI template path: `/api/v1/posts/{id}`. */
  path: string;
  auth: Auth;
  /** Left out of the OpenAPI document (a framework's own endpoints, CORS preflights). */
  undocumented?: boolean;
}

/** Declares a group of routes; keeps each entry's literal type so handlers can be wired by name. */
export function defineRoutes<Auth extends string, T extends Record<string, RouteSpec<Auth>>>(routes: T): T {
  return routes;
}

/** Adds every documented route to the document, its security taken from its auth name. */
export function addRoutes<Auth extends string>(
  doc: OpenApiDocument,
  routes: Iterable<RouteSpec<Auth>>,
  security: (auth: Auth) => Record<string, string[]>[] | undefined,
): OpenApiDocument {
  for (const { method, path, auth, undocumented, ...operation } of routes) {
    if (undocumented) continue;
    const required = operation.security ?? security(auth);
    doc.operation(method, path, { ...operation, ...(required ? { security: required } : {}) });
  }
  return doc;
}

/** `/media/{key}` → `/media/:key` (Express). */
export function expressPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** `METHOD /path`, the key both sides of a registry check compare. */
export function routeKey(route: { method: string; path: string }): string {
  return `${route.method.toUpperCase()} ${route.path}`;
}
