import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ElicitResult, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { getAssistantSettings } from '#server/workspaces/assistant-settings.ts';
import { platformName } from './platform-rules.ts';

/** How long the user has to answer a confirmation before it counts as cancelled. */
const confirmationTimeoutMs = 10 * 60_000;
const messagePreviewLength = 280;

export interface PublishIntent {
  /** `queue`: the time is the next free queue slot, chosen when the post is stored. */
  kind: 'now' | 'schedule' | 'queue';
  message: string;
  accountIds: readonly string[];
  scheduledAt?: Date | undefined;
  mediaCount: number;
}

/**
 * What happens to a publishing tool call:
 * - `proceed`: publish or schedule as asked (the user confirmed, or nobody has to);
 * - `declined` / `cancelled`: the user said no or dismissed the question, nothing happens;
 * - `approval`: the client cannot ask and the user wants to approve: save a draft instead.
 */
export type Decision =
  | { outcome: 'proceed'; confirmedBy: 'elicitation' | 'none' }
  | { outcome: 'declined' }
  | { outcome: 'cancelled' }
  | { outcome: 'approval' };

function formatWhen(when: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(when);
  return `${text} (${timeZone})`;
}

/** The text the user sees in the assistant's confirmation dialog. */
export async function confirmationSummary(
  ctx: AppContext,
  workspaceId: string,
  intent: PublishIntent,
  timeZone: string,
): Promise<string> {
  const accounts = new Map((await listAccounts(ctx, workspaceId)).map((a) => [a.id, a]));
  const targets = intent.accountIds.map((id) => {
    const account = accounts.get(id);
    if (!account) return `- unknown account ${id}`;
    const handle = account.username
      ? account.username.startsWith('@')
        ? account.username
        : `@${account.username}`
      : account.platformAccountId;
    const name = account.label || account.username || account.platformAccountId;
    return `- ${name} (${handle}, ${platformName(ctx.publishers, account.platform)})`;
  });
  const trimmed = intent.message.trim();
  const preview =
    trimmed.length > messagePreviewLength ? `${trimmed.slice(0, messagePreviewLength)}…` : trimmed;
  const when =
    intent.kind === 'now'
      ? 'now'
      : intent.kind === 'queue'
        ? `the next free slot of each account’s queue${intent.scheduledAt ? ` after ${formatWhen(intent.scheduledAt, timeZone)}` : ''}`
        : intent.scheduledAt
          ? formatWhen(intent.scheduledAt, timeZone)
          : 'at its scheduled time';
  return [
    intent.kind === 'now'
      ? 'An assistant wants to publish this post now.'
      : 'An assistant wants to schedule this post.',
    '',
    `Accounts (${targets.length}):`,
    ...targets,
    '',
    `Message: ${preview ? `“${preview}”` : '(no text)'}`,
    ...(intent.mediaCount ? [`Media: ${intent.mediaCount} attachment(s)`] : []),
    `When: ${when}`,
  ].join('\n');
}

/**
 * Asks the user through MCP elicitation when the client can show a form; otherwise follows the
 * user's "assistants must confirm" setting.
 */
export async function decide(
  ctx: AppContext,
  server: McpServer,
  workspaceId: string,
  intent: PublishIntent,
  relatedRequestId: RequestId,
): Promise<Decision> {
  const settings = await getAssistantSettings(ctx, workspaceId);
  if (!server.server.getClientCapabilities()?.elicitation?.form) {
    return settings.assistantsMustConfirm
      ? { outcome: 'approval' }
      : { outcome: 'proceed', confirmedBy: 'none' };
  }
  const message = await confirmationSummary(ctx, workspaceId, intent, settings.timezone);
  const title = intent.kind === 'now' ? 'Publish now' : 'Schedule';
  let result: ElicitResult;
  try {
    result = await server.server.elicitInput(
      {
        mode: 'form',
        message,
        requestedSchema: {
          type: 'object',
          properties: {
            confirm: {
              type: 'boolean',
              title,
              description: `Yes, ${intent.kind === 'now' ? 'publish this post now' : 'schedule this post'}`,
              default: false,
            },
          },
          required: ['confirm'],
        },
      },
      { relatedRequestId, timeout: confirmationTimeoutMs },
    );
  } catch (error) {
    // No answer (timeout, the client went away, a malformed reply): nothing is published.
    ctx.logger.info({ err: error }, 'MCP confirmation got no usable answer');
    return { outcome: 'cancelled' };
  }
  if (result.action === 'accept') {
    return result.content?.confirm === true
      ? { outcome: 'proceed', confirmedBy: 'elicitation' }
      : { outcome: 'declined' };
  }
  return result.action === 'decline' ? { outcome: 'declined' } : { outcome: 'cancelled' };
}
