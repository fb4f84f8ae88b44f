import { isPlatformError, ProblemError, platformProblem, problem } from '@postwave/shared';
import type { RouteSpec } from '@postwave/shared/openapi/index';
import { type Caller, requireCaller } from '#server/auth/caller.ts';
import { inPathWorkspace } from '#server/auth/path-workspace.ts';
import { assertCan, type Permission } from '#server/auth/permissions.ts';
import { type AppContext, getContext } from '#server/context.ts';
import { isInvalidInputError } from '#server/db/errors.ts';
import { problemResponse } from './respond.ts';

/**
 * How a route's caller proves who they are. `caller`: a bearer token or a browser session;
 * `session`: a browser session only; `public`: nobody; `dispatchSecret`, `oauthClient` and
 * `mcpToken`: the endpoint checks its own credential (dispatch secret, OAuth client, MCP token).
 */
export type ApiAuth = 'caller' | 'session' | 'public' | 'dispatchSecret' | 'oauthClient' | 'mcpToken';
/**
 * A route entry. `caller` and `session` routes declare the workspace `permission` they need
 * (server/auth/permissions.ts): the auth step checks it against the caller's role on every
 * request, so no handler can forget it (a test fails when an entry leaves it out).
 */
export type ApiRoute = RouteSpec<ApiAuth> & {
  permission?: Permission;
  /**
   * The path parameter naming the workspace the route acts on (`/api/v1/workspaces/{id}/…`): the
   * caller must be a member there (else 404, like a missing one; a token only in the workspace it is
   * bound to), and `permission` is checked against their role there.
   */
  workspaceParam?: string;
};

/** Declares a resource's routes; each entry keeps its literal method, path and auth. */
export function defineApiRoutes<const T extends Record<string, ApiRoute>>(routes: T): T {
  return routes;
}

export interface RouteContext<P> {
  params: Promise<P>;
}

/** `/posts/{id}` → `{ id: string }`: a handler's params follow from its route's path. */
export type PathParams<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name]: string } & PathParams<Rest>
  : Record<never, never>;

type CallerFor<S extends ApiRoute> = S['auth'] extends 'caller' | 'session' ? Caller : undefined;

export interface RouteCall<S extends ApiRoute, P> {
  request: Request;
  ctx: AppContext;
  params: P;
  /** The authenticated caller, for `caller` and `session` routes. */
  caller: CallerFor<S>;
}

/**
 * Wires a route handler from its registry entry: authenticates as the entry's `auth` says, gives
 * the handler the app context, and turns every thrown error into a problem response. Unexpected
 * errors are logged and answered with a bare 500, never a stack trace.
 */
export function route<S extends ApiRoute>(
  spec: S,
  handler: (call: RouteCall<S, PathParams<S['path']>>) => Promise<Response>,
) {
  type P = PathParams<S['path']>;
  const sessionOnly = spec.auth === 'session';
  const authenticated = sessionOnly || spec.auth === 'caller';
  const wired = async (request: Request, routeContext: RouteContext<P>): Promise<Response> => {
    let ctx: AppContext | undefined;
    try {
      ctx = await getContext();
      const authenticatedCaller = authenticated
        ? await requireCaller(request, ctx, { sessionOnly })
        : undefined;
      const params = await routeContext.params;
      const caller =
        authenticatedCaller && spec.workspaceParam
          ? await inPathWorkspace(
              ctx,
              authenticatedCaller,
              (params as Record<string, string>)[spec.workspaceParam],
            )
          : authenticatedCaller;
      if (caller) assertCan(caller.role, spec.permission ?? 'workspace.delete');
      return await handler({ request, ctx, params, caller: caller as CallerFor<S> });
    } catch (error) {
      return errorResponse(error, ctx);
    }
  };
  return wired;
}

export function errorResponse(error: unknown, ctx: AppContext | undefined): Response {
  if (error instanceof ProblemError) return problemResponse(error.problem, error.headers);
  if (isPlatformError(error)) {
    return problemResponse(
      platformProblem('validation_failed', error.message, { hint: error.hint, issueCode: error.code }),
    );
  }
  if (isInvalidInputError(error))
    return problemResponse(problem('invalid_request', 'The request contains a value that cannot be stored'));
  const log = ctx?.logger;
  if (log) log.error({ err: error }, 'unhandled error in route');
  else console.error('unhandled error in route', error);
  return problemResponse(problem('internal', 'Something went wrong on our side'));
}
