import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ProblemError, problem } from '@postwave/shared';
import { type AuditActor, assistantActor } from '#server/audit/actor.ts';
import { assertCan, type Permission } from '#server/auth/permissions.ts';
import type { AppContext } from '#server/context.ts';
import type { WorkspaceRole } from '#server/db/schema.ts';
import { findClientRow } from '#server/oauth/repository.ts';
import { type RecordedAction, recordPostEvent } from '#server/posts/history.ts';
import { tokenName } from '#server/tokens/repository.ts';
import { boundWorkspace } from '#server/workspaces/membership.ts';
import type { McpCaller } from './auth.ts';

/** Who is acting through /mcp: a member, by way of a named client, in the grant's workspace. */
export interface McpActor {
  /** The member who granted the client (the author of what it creates). */
  userId: string;
  workspaceId: string;
  /** The granting member's role now (read again for each call: a demotion applies at once). */
  role(): Promise<WorkspaceRole>;
  /** 403 `forbidden` unless the granting member's role holds `permission` (server/auth/permissions.ts). */
  assertCan(permission: Permission): Promise<void>;
  /** The name the user approved on the consent page (or the API token's name). */
  clientName(): Promise<string>;
  /** The assistant as the audit log names it: the client, acting for the granting member. */
  auditActor(): Promise<AuditActor>;
  /** Adds an assistant action to the post's history, naming the client. */
  record(postId: string, action: RecordedAction, detail?: Record<string, unknown>): Promise<void>;
}

function forbiddenGone(): ProblemError {
  return new ProblemError(problem('forbidden', 'The member who granted this client left the workspace'));
}

async function lookUpClientName(ctx: AppContext, caller: McpCaller): Promise<string> {
  const apiToken = /^api-token:(.+)$/.exec(caller.clientId);
  if (apiToken) {
    const name = await tokenName(ctx, apiToken[1]!);
    return name ? `API token “${name}”` : 'API token';
  }
  const client = await findClientRow(ctx, caller.clientId);
  return client?.name || 'Unnamed MCP client';
}

export function createActor(ctx: AppContext, caller: McpCaller, server: McpServer): McpActor {
  let name: Promise<string> | undefined;
  const clientName = () => {
    name ??= lookUpClientName(ctx, caller).catch(() => 'MCP client');
    return name;
  };
  const role = async (): Promise<WorkspaceRole> => {
    const membership = await boundWorkspace(ctx, caller.userId, caller.workspaceId);
    // A member removed since the session began keeps nothing: no permission holds for them.
    if (!membership) throw forbiddenGone();
    return membership.role;
  };
  return {
    userId: caller.userId,
    workspaceId: caller.workspaceId,
    role,
    async assertCan(permission) {
      assertCan(await role(), permission);
    },
    clientName,
    async auditActor() {
      return assistantActor(caller.userId, await clientName());
    },
    async record(postId, action, detail = {}) {
      // The name the MCP client gave itself at initialize is self-declared: kept as a detail only.
      const info = server.server.getClientVersion();
      try {
        await recordPostEvent(ctx, {
          postId,
          userId: caller.userId,
          actor: 'assistant',
          actorName: await clientName(),
          action,
          detail: { ...detail, ...(info ? { clientInfo: { name: info.name, version: info.version } } : {}) },
        });
      } catch (error) {
        // The action itself happened; a lost history line must not turn it into an error.
        ctx.logger.error({ err: error, postId, action }, 'could not record post history');
      }
    },
  };
}
