import { type IdempotentResponse, type OperationResult, runIdempotent } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { idempotencyScope, idempotencyStoreFor } from './repository.ts';

/**
 * Runs `operation` under the SDK's Idempotency-Key protocol for this member in this workspace
 * (see runIdempotent): the route hands over the parsed body and gets the response to send.
 */
export async function idempotent(
  ctx: AppContext,
  caller: { workspaceId: string; userId: string },
  request: Request,
  body: unknown,
  operation: () => Promise<OperationResult>,
): Promise<Response> {
  const answer = await runIdempotent(
    {
      store: idempotencyStoreFor(ctx),
      scope: idempotencyScope(caller),
      key: request.headers.get('idempotency-key'),
      method: request.method,
      path: new URL(request.url).pathname,
      body,
      onStoreError: (error) => ctx.logger.error({ err: error }, 'could not record an idempotent answer'),
    },
    operation,
  );
  return toResponse(answer);
}

function toResponse(answer: IdempotentResponse): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': answer.contentType, 'cache-control': 'no-store', ...answer.headers },
  });
}
