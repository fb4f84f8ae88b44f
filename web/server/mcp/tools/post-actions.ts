import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { decidePosting } from '#server/approvals/policy.ts';
import { type RequestedAction, submitStoredPost } from '#server/approvals/submit-post.ts';
import type { AppContext } from '#server/context.ts';
import { actOnPost } from '#server/posts/act-on-post.ts';
import { assertMayEditPost } from '#server/posts/authorize.ts';
import { getPost } from '#server/posts/get-post.ts';
import { assertFuture, ownedPost } from '#server/posts/guards.ts';
import type { RecordedAction } from '#server/posts/history.ts';
import { assertPublishable } from '#server/posts/prepare.ts';
import { parseScheduledAt, toPostAction } from '#server/posts/schema.ts';
import type { McpActor } from '../actor.ts';
import { type Decision, decide, type PublishIntent } from '../confirmation.ts';
import { McpPostId, McpScheduledAt } from '../schemas.ts';
import { notConfirmed } from './approval.ts';
import { assistantActor, submittedResult } from './approvals.ts';
import { ok, tool } from './results.ts';

/**
 * Actions on a stored post, each `POST /api/v1/posts/{id}` underneath: publish now, schedule,
 * move back to drafts, resolve unknown outcomes. Publishing ones ask the user to confirm first,
 * after the same refusals the API would give, so nobody is asked about a post that cannot go.
 */
export function registerPostActionTools(server: McpServer, ctx: AppContext, actor: McpActor): void {
  const { workspaceId } = actor;
  const log = (postId: string, action: RecordedAction, detail: Record<string, unknown> = {}) =>
    actor.record(postId, action, detail);
  const ask = (intent: PublishIntent, requestId: RequestId): Promise<Decision> =>
    decide(ctx, server, workspaceId, intent, requestId);
  /** The stored post submitted for approval instead (REST's 202). */
  const submit = async (id: string, action: RequestedAction, reason: 'approvals' | 'assistants') => {
    const row = await ownedPost(ctx, workspaceId, id);
    const post = await submitStoredPost(ctx, row, action, await assistantActor(actor), reason);
    await log(id, 'approval_requested', {
      requestedMode: action.postingMode,
      ...(action.scheduledAt ? { scheduledAt: action.scheduledAt.toISOString() } : {}),
    });
    return submittedResult(ctx, post);
  };
  /** Whether the granting member's requests wait for approval; otherwise they need `posts.publish`. */
  const mustSubmit = async (id: string) => {
    const role = await actor.role();
    await assertMayEditPost(ctx, { workspaceId, userId: actor.userId, role }, id);
    return (await decidePosting(ctx, { workspaceId, role })) === 'submit';
  };

  server.registerTool(
    'publish_post',
    {
      title: 'Publish a post now',
      description:
        'Publishes a draft, scheduled or failed post now (a failed post retries only the targets that did not post; a target is never posted twice). Asks the user to confirm first when the client supports it.',
      inputSchema: { id: McpPostId },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    tool(ctx, async ({ id }, requestId) => {
      const current = await getPost(ctx, workspaceId, id);
      // A posted post: the service refuses it (409) before anything happens, as REST does.
      if (current.status === 'posted')
        await actOnPost(ctx, workspaceId, id, { postingMode: 'now' }, await actor.auditActor());
      if (await mustSubmit(id)) return submit(id, { postingMode: 'now' }, 'approvals');
      await assertPublishable(ctx, workspaceId, current);
      const intent: PublishIntent = {
        kind: 'now',
        message: current.message,
        accountIds: current.accountIds,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'now',
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval') return submit(id, { postingMode: 'now' }, 'assistants');
      const post = await actOnPost(
        ctx,
        workspaceId,
        id,
        toPostAction({ postingMode: 'now' }),
        await actor.auditActor(),
      );
      await log(post.id, 'published', { confirmedBy: decision.confirmedBy, status: post.status });
      return ok(post, `Post ${post.id} is ${post.status}.`);
    }),
  );

  server.registerTool(
    'schedule_post',
    {
      title: 'Schedule a post',
      description:
        'Schedules a draft or failed post, or moves a scheduled one, to scheduledAt. Asks the user to confirm first when the client supports it.',
      inputSchema: { id: McpPostId, scheduledAt: McpScheduledAt },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    tool(ctx, async ({ id, scheduledAt }, requestId) => {
      const current = await getPost(ctx, workspaceId, id);
      const when = assertFuture(parseScheduledAt(scheduledAt));
      // A posted post: the service refuses it (409) before anything happens, as REST does.
      if (current.status === 'posted')
        await actOnPost(
          ctx,
          workspaceId,
          id,
          { postingMode: 'schedule', scheduledAt: when },
          await actor.auditActor(),
        );
      if (await mustSubmit(id))
        return submit(id, { postingMode: 'schedule', scheduledAt: when }, 'approvals');
      await assertPublishable(ctx, workspaceId, current);
      const intent: PublishIntent = {
        kind: 'schedule',
        message: current.message,
        accountIds: current.accountIds,
        scheduledAt: when,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'schedule',
          scheduledAt: when.toISOString(),
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval')
        return submit(id, { postingMode: 'schedule', scheduledAt: when }, 'assistants');
      const post = await actOnPost(
        ctx,
        workspaceId,
        id,
        { postingMode: 'schedule', scheduledAt: when },
        await actor.auditActor(),
      );
      await log(post.id, 'scheduled', { confirmedBy: decision.confirmedBy, scheduledAt: post.scheduledAt });
      return ok(post, `Post ${post.id} is scheduled for ${post.scheduledAt}.`);
    }),
  );

  server.registerTool(
    'move_post_to_draft',
    {
      title: 'Move a post back to drafts',
      description:
        'Unschedules a scheduled post (or turns a failed one into a draft) so nothing is published until it is scheduled or published again.',
      inputSchema: { id: McpPostId },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    tool(ctx, async ({ id }) => {
      const post = await actOnPost(ctx, workspaceId, id, { postingMode: 'draft' }, await actor.auditActor());
      await log(post.id, 'moved_to_draft');
      return ok(post, `Post ${post.id} is now a draft.`);
    }),
  );

  server.registerTool(
    'resolve_unknown_targets',
    {
      title: 'Resolve targets whose outcome is unknown',
      description:
        'A target is `unknown` when publishing was interrupted on a platform that can neither dedupe a resend nor be checked. After the user checked the account: `mark_posted` records it as posted; `post_again` sends it again now (it appears twice if the interrupted send did arrive; asks the user to confirm first when the client supports it). Without accountIds, every unknown target of the post.',
      inputSchema: {
        id: McpPostId,
        resolution: z.enum(['mark_posted', 'post_again']),
        accountIds: z.array(z.string()).max(100).optional(),
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
    tool(ctx, async ({ id, resolution, accountIds }, requestId) => {
      const action = { resolveUnknown: resolution, accountIds } as const;
      if (resolution === 'mark_posted') {
        const post = await actOnPost(ctx, workspaceId, id, action, await actor.auditActor());
        return ok(post, `Post ${post.id} is ${post.status}.`);
      }
      const current = await getPost(ctx, workspaceId, id);
      const targets = current.results
        .filter((r) => r.status === 'unknown' && (!accountIds || accountIds.includes(r.accountId)))
        .map((r) => r.accountId);
      // Nothing to resolve: the service answers 409 before anyone is asked.
      if (targets.length === 0) await actOnPost(ctx, workspaceId, id, action, await actor.auditActor());
      const intent: PublishIntent = {
        kind: 'now',
        message: current.message,
        accountIds: targets,
        mediaCount: current.media.length,
      };
      const decision = await ask(intent, requestId);
      if (decision.outcome === 'declined' || decision.outcome === 'cancelled') {
        await log(id, decision.outcome === 'declined' ? 'confirmation_declined' : 'confirmation_cancelled', {
          requestedMode: 'post_again',
        });
        return notConfirmed(decision.outcome, intent, current);
      }
      if (decision.outcome === 'approval') {
        const text = `The user asks assistants to get their approval first, and this client cannot ask them directly. Nothing was sent; the user can choose "Post again" on ${ctx.config.appUrl}/posts/${id}`;
        return {
          content: [{ type: 'text', text }],
          structuredContent: { outcome: 'approval_required', published: false, post: current },
        };
      }
      const post = await actOnPost(ctx, workspaceId, id, action, await actor.auditActor());
      await log(post.id, 'published', {
        confirmedBy: decision.confirmedBy,
        status: post.status,
        postAgain: targets,
      });
      return ok(post, `Post ${post.id} is ${post.status}.`);
    }),
  );
}
