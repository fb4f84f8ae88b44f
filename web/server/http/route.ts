import { isPlatformError, ProblemError, problem } from '@postwave/shared';
import { type AppContext, getContext } from '../context.ts';
import { isInvalidInputError } from '../services/db-errors.ts';
import { problemResponse } from './respond.ts';

export interface RouteContext<P> {
  params: Promise<P>;
}

type Handler<P> = (request: Request, ctx: AppContext, params: P) => Promise<Response>;

/**
 * Wraps a route handler: gives it the app context, and turns every thrown error into a problem
 * response. Unexpected errors are logged and answered with a bare 500, never a stack trace.
 */
export function route<P = Record<string, never>>(handler: Handler<P>) {
  return async (request: Request, routeContext: RouteContext<P>): Promise<Response> => {
    let ctx: AppContext | undefined;
    try {
      ctx = await getContext();
      return await handler(request, ctx, await routeContext.params);
    } catch (error) {
      return errorResponse(error, ctx);
    }
  };
}

export function errorResponse(error: unknown, ctx: AppContext | undefined): Response {
  if (error instanceof ProblemError) return problemResponse(error.problem, error.headers);
  if (isPlatformError(error)) {
    return problemResponse(
      problem('validation_failed', error.message, { errors: [{ code: error.code, message: error.message }] }),
    );
  }
  if (isInvalidInputError(error))
    return problemResponse(problem('invalid_request', 'The request contains a value that cannot be stored'));
  const log = ctx?.logger;
  if (log) log.error({ err: error }, 'unhandled error in route');
  else console.error('unhandled error in route', error);
  return problemResponse(problem('internal', 'Something went wrong on our side'));
}
