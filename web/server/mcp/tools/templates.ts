import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AppContext } from '#server/context.ts';
import { listTemplates } from '#server/templates/list-templates.ts';
import type { McpActor } from '../actor.ts';
import { readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

/** Template tools over the same operations as /api/v1/templates. */
export function registerTemplateTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  server.registerTool(
    'list_templates',
    {
      title: 'List post templates',
      description:
        "The workspace's post templates: id, name and the content a post made from it starts with (message, accountIds, media, accountOptions, overrides, thread). Pass an id as create_post's templateId; fields given to create_post replace the template's.",
      inputSchema: {},
      annotations: readOnly,
    },
    tool(ctx, async () => {
      const templates = await listTemplates(ctx, actor.workspaceId);
      return ok({ templates }, `${templates.length} template(s).`);
    }),
  );
}
