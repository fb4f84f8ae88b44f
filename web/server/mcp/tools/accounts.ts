import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { notFound } from '#server/http/respond.ts';
import type { McpActor } from '../actor.ts';
import { platformRules } from '../platform-rules.ts';
import { McpAccountIds } from '../schemas.ts';
import { readOnly } from './annotations.ts';
import { ok, tool } from './results.ts';

/** The connected accounts and what each platform accepts: what an assistant reads before writing a post. */
export function registerAccountTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;

  server.registerTool(
    'list_accounts',
    {
      title: 'List accounts',
      description:
        'The connected social accounts: id (use it in accountIds), platform, label, username, status and health (ok, expiring, needs_reconnect, unreachable; healthReason says why, healthHint what the user can do). Posts to an account whose health is needs_reconnect fail until the user reconnects it in the web app: tell them.',
      inputSchema: {},
      annotations: readOnly,
    },
    tool(ctx, async () => {
      const accounts = await listAccounts(ctx, workspaceId);
      const attention = accounts.filter((a) => a.health !== 'ok').length;
      return ok(
        { accounts },
        `${accounts.length} connected account(s).${attention ? ` ${attention} need(s) attention (see health).` : ''}`,
      );
    }),
  );

  server.registerTool(
    'get_platform_rules',
    {
      title: 'Platform rules',
      description:
        'For each connected account (or the ones given; an id that is not one of them is not_found): the platform, how it counts text and its limit, which media it takes, and the per-post options it accepts in accountOptions (where the platform describes them). Read it before writing a post; validate_post is the authority and checks the result.',
      inputSchema: { accountIds: McpAccountIds.optional() },
      annotations: readOnly,
    },
    tool(ctx, async ({ accountIds }) => {
      const accounts = await listAccounts(ctx, workspaceId);
      // An id that is not one of this workspace's accounts is 404, as everywhere (contract G), not skipped.
      if (accountIds?.some((id) => !accounts.some((a) => a.id === id))) throw notFound('account');
      const chosen = accountIds ? accounts.filter((a) => accountIds.includes(a.id)) : accounts;
      const rules = platformRules(ctx.publishers, chosen);
      return ok({ accounts: rules }, `Rules for ${rules.length} account(s).`);
    }),
  );
}
