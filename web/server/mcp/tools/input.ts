import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { parseBody } from '@postwave/shared';
import { type ZodRawShape, z } from 'zod';
import type { AppContext } from '#server/context.ts';
import { failure } from './results.ts';

/**
 * Tools that check their raw arguments themselves: validate_post answers a request that breaks a
 * rule of its own (no accounts, 51 media…) with `valid: false`, as POST /api/v1/validation does,
 * so its advertised schema (minItems and all) must not refuse it first.
 */
const selfValidating = new Set(['validate_post']);

type ToolCallback = (...args: never[]) => unknown;
type SdkValidation = (tool: { inputSchema?: unknown }, args: unknown, name: string) => Promise<unknown>;

/**
 * A view of `server` whose tools refuse bad arguments the way the REST API refuses a bad body
 * (docs/mcp.md#tools): a tool error whose `structuredContent.error` is the problem (400
 * `invalid_request` for a wrong type or a missing field, 422 `validation_failed` for a value out of
 * its rules, `errors[]` with paths). The SDK would otherwise refuse them itself, with a bare text
 * ("MCP error -32602: Input validation error…"), before the tool runs. Its schemas stay what
 * `tools/list` advertises; its guard on the number of elements stays too.
 */
export function inputChecked(server: McpServer, ctx: AppContext): McpServer {
  const sdk = server as unknown as { validateToolInput: SdkValidation };
  const sdkValidation = sdk.validateToolInput.bind(server);
  sdk.validateToolInput = async (tool, args, name) => {
    // Without a schema, the SDK only counts the elements (and answers undefined: no arguments).
    await sdkValidation({ ...tool, inputSchema: undefined }, args, name);
    return tool.inputSchema ? (args ?? {}) : undefined;
  };

  const register = server.registerTool.bind(server) as (
    name: string,
    config: { inputSchema?: ZodRawShape },
    cb: ToolCallback,
  ) => unknown;
  const registerTool = (name: string, config: { inputSchema?: ZodRawShape }, cb: ToolCallback) => {
    if (!config.inputSchema || selfValidating.has(name)) return register(name, config, cb);
    const schema = z.object(config.inputSchema);
    return register(name, config, (async (args: unknown, ...rest: never[]) => {
      let parsed: unknown;
      try {
        parsed = parseBody(schema, args);
      } catch (error) {
        return failure(error, ctx);
      }
      return (cb as (...a: unknown[]) => unknown)(parsed, ...rest);
    }) as ToolCallback);
  };
  return new Proxy(server, {
    get: (target, prop, receiver) =>
      prop === 'registerTool' ? registerTool : Reflect.get(target, prop, receiver),
  });
}
