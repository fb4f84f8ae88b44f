import type { CallToolResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isPlatformError, ProblemError } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { isInvalidInputError } from '#server/db/errors.ts';

/*
 * What every tool answers: a summary line and the value as text, the value as structured content;
 * a failure is a tool error carrying the REST API's problem object.
 */

/** A success: the summary for the model to read, then the value (also as structured content). */
export function ok(value: unknown, summary: string): CallToolResult {
  const structured = (
    value && typeof value === 'object' && !Array.isArray(value) ? value : { value }
  ) as Record<string, unknown>;
  return {
    content: [{ type: 'text', text: `${summary}\n\n${JSON.stringify(value, null, 2)}` }],
    structuredContent: structured,
  };
}

/** Failures are tool errors carrying the REST API's problem (status, code, hint, per-account errors). */
export function failure(error: unknown, ctx: AppContext): CallToolResult {
  let body: Record<string, unknown>;
  if (error instanceof ProblemError) body = { ...error.problem };
  else if (isPlatformError(error))
    body = { status: 422, code: error.code, detail: error.message, hint: error.hint };
  else if (isInvalidInputError(error))
    body = {
      status: 400,
      code: 'invalid_request',
      detail: 'The request contains a value that cannot be stored',
    };
  else {
    ctx.logger.error({ err: error }, 'unhandled error in MCP tool');
    body = { status: 500, code: 'internal', detail: 'Something went wrong on our side' };
  }
  const errors = Array.isArray(body.errors)
    ? (body.errors as { accountId?: string; path?: string; code: string; message: string }[])
        .map(
          (e) =>
            `\n- ${e.accountId ?? e.path ?? ''}${e.accountId || e.path ? ': ' : ''}${e.message} (${e.code})`,
        )
        .join('')
    : '';
  // What the person can do (contract F: every platform error carries a hint), for the model to pass on.
  const hint = typeof body.hint === 'string' ? `\nWhat to do: ${body.hint}` : '';
  return {
    isError: true,
    content: [{ type: 'text', text: `Error ${body.code}: ${body.detail}${errors}${hint}` }],
    structuredContent: { error: body },
  };
}

export function tool<T>(ctx: AppContext, run: (args: T, requestId: RequestId) => Promise<CallToolResult>) {
  return async (args: T, extra: { requestId: RequestId }): Promise<CallToolResult> => {
    try {
      return await run(args, extra.requestId);
    } catch (error) {
      return failure(error, ctx);
    }
  };
}
