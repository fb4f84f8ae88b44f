import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { listAccounts } from '#server/accounts/list-accounts.ts';
import type { AppContext } from '#server/context.ts';
import { getPost } from '#server/posts/get-post.ts';
import { listPostEvents } from '#server/posts/history.ts';
import { listPosts } from '#server/posts/list-posts.ts';
import { onPostStatusChange } from '#server/posts/status-feed.ts';

export const accountsUri = 'postwave://accounts';
const postUriPattern = /^postwave:\/\/posts\/([^/?#]+)$/;
export const postUri = (id: string) => `postwave://posts/${id}`;

function json(uri: string, value: unknown) {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] };
}

async function readPost(ctx: AppContext, workspaceId: string, id: string) {
  try {
    const post = await getPost(ctx, workspaceId, id);
    return { ...post, history: await listPostEvents(ctx, workspaceId, post.id) };
  } catch {
    // Another user's post is as absent as a missing one.
    throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${postUri(id)}`);
  }
}

export interface ResourceOptions {
  /**
   * Subscriptions need a session whose server outlives the request (Streamable HTTP with
   * `Mcp-Session-Id` and a GET stream); a stateless request has nowhere to send updates later.
   */
  sessionful: boolean;
}

/**
 * `postwave://accounts` and `postwave://posts/{id}`, with `resources/subscribe`: when a
 * subscribed post's status changes (on any instance), the session gets
 * `notifications/resources/updated`. Returns a cleanup for when the session ends.
 */
export function registerResources(
  server: McpServer,
  ctx: AppContext,
  workspaceId: string,
  options: ResourceOptions,
): () => void {
  server.registerResource(
    'accounts',
    accountsUri,
    {
      title: 'Connected accounts',
      description:
        'The social accounts posts can go to (ids for accountIds, platform, label, username, status, and health: ok, expiring, needs_reconnect or unreachable, with healthReason and healthCheckedAt). Subscribe to hear when one is added, removed, renamed or needs reconnecting.',
      mimeType: 'application/json',
    },
    async (uri) => json(uri.href, { accounts: await listAccounts(ctx, workspaceId) }),
  );

  server.registerResource(
    'post',
    new ResourceTemplate('postwave://posts/{id}', {
      list: async () => {
        const { posts } = await listPosts(ctx, workspaceId, { limit: 50 });
        return {
          resources: posts.map((p) => ({
            uri: postUri(p.id),
            name: `post-${p.id}`,
            title: `${p.status}: ${p.message.trim().slice(0, 60) || '(media only)'}`,
            mimeType: 'application/json',
          })),
        };
      },
    }),
    {
      title: 'Post',
      description:
        'One post with its per-account results, its staging (video uploaded to the platform ahead of the due time: `staging`, `staged` or `stage_failed` per account) and history. Subscribe to hear when its status changes (scheduled → posted or failed).',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const id = String(variables.id ?? '');
      return json(uri.href, await readPost(ctx, workspaceId, id));
    },
  );

  const subscriptions = new Set<string>();
  let stopListening: (() => void) | undefined;
  let closed = false;

  server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (!options.sessionful)
      throw new McpError(
        ErrorCode.InvalidRequest,
        'Subscriptions need a session: initialize first and keep the Mcp-Session-Id (and a GET stream) open',
      );
    const match = postUriPattern.exec(uri);
    if (match) await readPost(ctx, workspaceId, decodeURIComponent(match[1]!));
    else if (uri !== accountsUri) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`);
    subscriptions.add(uri);
    if (!stopListening) {
      const stop = await onPostStatusChange(ctx, (change) => {
        if (change.workspaceId !== workspaceId) return;
        if (change.kind === 'accounts') {
          if (subscriptions.has(accountsUri))
            server.server.sendResourceUpdated({ uri: accountsUri }).catch(() => {});
          return;
        }
        const changed = postUri(change.id);
        if (!subscriptions.has(changed)) return;
        if (change.status === 'deleted') subscriptions.delete(changed);
        server.server.sendResourceUpdated({ uri: changed }).catch(() => {});
      });
      if (closed) stop();
      else stopListening = stop;
    }
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });

  return () => {
    closed = true;
    subscriptions.clear();
    stopListening?.();
    stopListening = undefined;
  };
}
