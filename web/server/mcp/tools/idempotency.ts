import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { idempotencyKeyPattern, ProblemError, problem, runIdempotent } from '@postwave/shared';
import { type ZodRawShape, z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { idempotencyScope, idempotencyStoreFor } from '#server/idempotency/repository.ts';
import type { McpActor } from '../actor.ts';
import { failure } from './results.ts';

/**
 * The tools that publish, schedule or queue (contract B, Idempotency: "every MCP tool that
 * publishes"). Each takes an optional `idempotencyKey` and runs under the same protocol, store and
 * scope (the member within the workspace) as POST /api/v1/posts (docs/idempotency.md#mcp-tools).
 */
export const publishingTools = new Set([
  'create_post',
  'publish_post',
  'schedule_post',
  'approve_post',
  'resolve_unknown_targets',
]);

const keyNote =
  ' Pass idempotencyKey (e.g. a UUID) to make a retry safe: the same key with the same arguments answers the first result again without publishing twice; the same key with other arguments is an error (idempotency_key_reused).';

const IdempotencyKey = z
  .string()
  .regex(idempotencyKeyPattern)
  .optional()
  .describe(
    'Like the HTTP Idempotency-Key header: 1 to 255 printable ASCII characters, yours within this workspace for 24 hours once something was published or attempted',
  );

/** Marks a result answered from the store, as REST's `Idempotent-Replayed: true` header does. */
const replayedMeta = 'postwave/idempotentReplayed';

type ToolCallback = (...args: never[]) => unknown;
type ToolConfig = { description?: string; inputSchema?: ZodRawShape };

/** A view of `server` whose publishing tools take `idempotencyKey` (see publishingTools). */
export function idempotencyKeyed(server: McpServer, ctx: AppContext, actor: McpActor): McpServer {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: ToolConfig,
    cb: ToolCallback,
  ) => unknown;
  const registerTool = (name: string, config: ToolConfig, cb: ToolCallback) => {
    if (!publishingTools.has(name)) return register(name, config, cb);
    const keyed: ToolConfig = {
      ...config,
      description: `${config.description ?? ''}${keyNote}`,
      inputSchema: { ...config.inputSchema, idempotencyKey: IdempotencyKey },
    };
    const run = cb as (args: Record<string, unknown>, extra: unknown) => Promise<CallToolResult>;
    return register(name, keyed, (async (args: Record<string, unknown> | undefined, extra: unknown) => {
      const { idempotencyKey: key, ...rest } = args ?? {};
      if (key === undefined) return run(rest, extra);
      try {
        assertKey(key);
        const answer = await runIdempotent(
          {
            store: idempotencyStoreFor(ctx),
            scope: idempotencyScope(actor),
            key,
            // The tool takes the place of method and path: the same key on another tool, or on
            // REST, is another request (422 idempotency_key_reused).
            method: 'MCP',
            path: `tools/call/${name}`,
            body: rest,
            onStoreError: (error) =>
              ctx.logger.error({ err: error }, 'could not record an idempotent tool result'),
          },
          async () => {
            const result = await run(rest, extra);
            return { status: outcomeStatus(result), body: result };
          },
        );
        const result = JSON.parse(answer.body) as CallToolResult;
        if (answer.headers['Idempotent-Replayed'] !== 'true') return result;
        return { ...result, _meta: { ...result._meta, [replayedMeta]: true } };
      } catch (error) {
        return failure(error, ctx);
      }
    }) as ToolCallback);
  };
  return new Proxy(server, {
    get: (target, prop, receiver) =>
      prop === 'registerTool' ? registerTool : Reflect.get(target, prop, receiver),
  });
}

/** The HTTP header's rules (shared pattern), named after the tool's field. */
function assertKey(key: unknown): asserts key is string {
  if (typeof key === 'string' && idempotencyKeyPattern.test(key)) return;
  throw new ProblemError(
    problem('invalid_request', 'idempotencyKey must be 1 to 255 printable ASCII characters', {
      errors: [{ path: 'idempotencyKey', code: 'invalid_idempotency_key', message: 'Use e.g. a UUID' }],
    }),
  );
}

/**
 * The status runIdempotent decides by (stored for 2xx and 502, released otherwise). A tool error
 * carries its problem's status. A result saying nothing was published and nothing submitted (the
 * user declined or dismissed the confirmation) released the key like a refusal before publishing,
 * so the user may still say yes to the same call; 409 stands for that and is never shown.
 */
function outcomeStatus(result: CallToolResult): number {
  const content = (result.structuredContent ?? {}) as Record<string, unknown>;
  if (result.isError) {
    const status = (content.error as { status?: unknown } | undefined)?.status;
    return typeof status === 'number' ? status : 500;
  }
  if (typeof content.status === 'number') return content.status;
  if (content.published === false) return 409;
  return 200;
}
