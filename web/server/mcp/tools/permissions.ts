import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Permission } from '#server/auth/permissions.ts';
import type { McpActor } from '../actor.ts';

/**
 * The workspace permission each MCP tool needs, like a route entry's (server/auth/permissions.ts):
 * tools act with the role of the member who granted the client. Checked before the tool runs;
 * a tool missing here needs the owner role (a test keeps the list complete).
 */
export const toolPermissions: Record<string, Permission> = {
  list_accounts: 'read',
  get_platform_rules: 'read',
  list_feeds: 'read',
  create_feed: 'workspace.manage',
  update_feed: 'workspace.manage',
  poll_feed: 'workspace.manage',
  delete_feed: 'workspace.manage',
  list_media: 'read',
  upload_media_from_url: 'posts.draft',
  presign_upload: 'posts.draft',
  // Contributors' assistants submit for approval (checked in the tool, as REST does).
  publish_post: 'posts.draft',
  schedule_post: 'posts.draft',
  approve_post: 'posts.approve',
  reject_post: 'posts.approve',
  move_post_to_draft: 'posts.publish',
  resolve_unknown_targets: 'posts.publish',
  validate_post: 'posts.draft',
  create_post: 'posts.draft',
  list_posts: 'read',
  get_post: 'read',
  update_post: 'posts.draft',
  delete_post: 'posts.publish',
  get_queue: 'read',
  set_queue: 'workspace.manage',
  list_webhooks: 'workspace.manage',
  create_webhook: 'workspace.manage',
  delete_webhook: 'workspace.manage',
  test_webhook: 'workspace.manage',
  list_webhook_deliveries: 'workspace.manage',
  get_post_metrics: 'read',
  get_analytics: 'read',
  get_best_times: 'read',
  list_templates: 'read',
};

type ToolCallback = (...args: never[]) => unknown;

/**
 * A view of `server` whose `registerTool` checks the tool's permission before its callback runs;
 * a denial is the tool error every tool answers with (403 `forbidden` with `requiredRole`).
 */
export function permissionChecked(server: McpServer, actor: McpActor): McpServer {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: unknown,
    cb: ToolCallback,
  ) => unknown;
  const registerTool = (name: string, config: unknown, cb: ToolCallback) =>
    register(name, config, (async (...args: never[]) => {
      try {
        await actor.assertCan(toolPermissions[name] ?? 'workspace.delete');
      } catch (error) {
        return deniedResult(error);
      }
      return cb(...args);
    }) as ToolCallback);
  return new Proxy(server, {
    get: (target, prop, receiver) =>
      prop === 'registerTool' ? registerTool : Reflect.get(target, prop, receiver),
  });
}

function deniedResult(error: unknown) {
  const body = (error as { problem?: Record<string, unknown> }).problem ?? { status: 403, code: 'forbidden' };
  return {
    isError: true,
    content: [{ type: 'text' as const, text: `Error ${String(body.code)}: ${String(body.detail ?? '')}` }],
    structuredContent: { error: body },
  };
}
