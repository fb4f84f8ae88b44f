import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeTelegram, startFakeTelegram } from '@postwave/shared/testing';
import { and, eq } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { approvePost } from '#server/approvals/approve-post.ts';
import { editPost } from '#server/approvals/edit-post.ts';
import { submitNewPost } from '#server/approvals/submit-post.ts';
import type { AppContext } from '#server/context.ts';
import {
  type ApprovalActor,
  auditEntries,
  posts,
  webhookDeliveries,
  workspaceMembers,
} from '#server/db/schema.ts';
import { getPost } from '#server/posts/get-post.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import type { PostPatch } from '#server/posts/schema.ts';
import { signUp } from '#server/users/sign-up.ts';
import { createWebhook } from '#server/webhooks/service.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type MailCapture, startMailCapture } from '../../helpers/mail-capture.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';
import { bots } from '../../helpers/telegram-bots.ts';

/**
 * Edits of posts awaiting approval (contract G, docs/workspaces.md#approvals): approving performs
 * the request as it stands after the author's edits (a new time is kept), and an edit that is
 * refused leaves the post, its webhook events, audit log, timeline and e-mails as they were.
 */

const day = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * day);

for (const backend of backends()) {
  describe(`edits of pending posts (${backend})`, () => {
    let telegram: FakeTelegram;
    let mail: MailCapture;
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let news: string;
    let owner: ApprovalActor;
    let contributor: ApprovalActor;

    before(async () => {
      telegram = await startFakeTelegram({
        bots: { [bots.main.token]: { username: bots.main.username } },
        chats: { '@news': { id: -1001, title: 'News' } },
      });
      mail = await startMailCapture();
      harness = await startServices(backend, {
        TELEGRAM_API_URL: telegram.url,
        SMTP_URL: mail.url,
        ALLOW_PRIVATE_HOSTS: '127.0.0.1:9',
      });
      ctx = harness.ctx;
      const made = await signUpWithWorkspace(ctx, {
        email: `pending-owner-${backend}@example.com`,
        password: 'long enough password',
      });
      workspaceId = made.workspaceId;
      owner = { type: 'member', id: made.userId, name: 'Olga Owner' };
      const writer = await signUp(ctx, {
        email: `pending-contributor-${backend}@example.com`,
        password: 'long enough password',
      });
      await ctx.db
        .insert(workspaceMembers)
        .values({ workspaceId, userId: writer.id, role: 'contributor', createdAt: new Date() });
      contributor = { type: 'member', id: writer.id, name: 'Carl Contributor' };
      news = (
        await connectAccount(ctx, workspaceId, {
          platform: 'telegram',
          platformAccountId: '@news',
          credentials: { botToken: bots.main.token },
        })
      ).account.id;
      await createWebhook(ctx, workspaceId, { url: 'http://127.0.0.1:9/hook', events: ['post.submitted'] });
    });
    after(async () => {
      await harness?.stop();
      await telegram?.close();
      await mail?.close();
    });

    const submit = (message: string, postingMode: 'schedule' | 'queue', scheduledAt?: Date) =>
      submitNewPost(
        ctx,
        workspaceId,
        { message, accountIds: [news], postingMode, media: [], accountOptions: {}, scheduledAt },
        contributor,
      );
    /** The contributor's edit, as `PATCH /api/v1/posts/{id}` makes it. */
    const edit = (postId: string, patch: PostPatch) =>
      editPost(ctx, { workspaceId, role: 'contributor' }, postId, patch, {
        audit: contributor,
        approval: contributor,
      });
    const approve = (postId: string) => approvePost(ctx, workspaceId, postId, owner, {});
    const time = (iso: string | null | undefined) => (iso ? new Date(iso).getTime() : undefined);
    /** A 422 with an issue at `path`. */
    const refused =
      (path: string) => (error: { problem?: { status: number; errors?: { path?: string }[] } }) => {
        assert.equal(error.problem?.status, 422, JSON.stringify(error.problem));
        assert.ok(
          error.problem?.errors?.some((issue) => issue.path?.startsWith(path)),
          JSON.stringify(error.problem),
        );
        return true;
      };

    test('a new time on a pending schedule is what approving schedules', async () => {
      const post = await submit('pending, moved to later', 'schedule', inDays(1));
      const later = inDays(2);
      const edited = await edit(post.id, { scheduledAt: later });
      assert.equal(edited.status, 'pending_approval', 'an edit keeps it pending');
      assert.equal(edited.approval?.requested.postingMode, 'schedule');
      assert.equal(time(edited.approval?.requested.scheduledAt), later.getTime());
      assert.equal(time(edited.scheduledAt), later.getTime());

      const approved = await approve(post.id);
      assert.equal(approved.status, 'scheduled');
      assert.equal(time(approved.scheduledAt), later.getTime(), 'approved at the edited time');
      const [row] = await ctx.db.select().from(posts).where(eq(posts.id, post.id));
      assert.equal(row?.nextAttemptAt?.getTime(), later.getTime(), 'due at the edited time');
    });

    test('a pending schedule refuses a past or removed time, and keeps its request', async () => {
      const when = inDays(1);
      const post = await submit('pending, bad times', 'schedule', when);
      await assert.rejects(
        edit(post.id, { scheduledAt: new Date(Date.now() - 60_000) }),
        refused('scheduledAt'),
      );
      await assert.rejects(edit(post.id, { scheduledAt: null }), refused('scheduledAt'));
      const kept = await getPost(ctx, workspaceId, post.id);
      assert.equal(kept.status, 'pending_approval');
      assert.equal(time(kept.approval?.requested.scheduledAt), when.getTime());
      assert.equal(time(kept.scheduledAt), when.getTime());
    });

    test('a pending queue request takes a new time as its earliest slot', async () => {
      const post = await submit('pending queue', 'queue');
      const earliest = inDays(3);
      const edited = await edit(post.id, { scheduledAt: earliest });
      assert.equal(edited.approval?.requested.postingMode, 'queue');
      assert.equal(time(edited.approval?.requested.scheduledAt), earliest.getTime());
      const cleared = await edit(post.id, { scheduledAt: null });
      assert.equal(cleared.approval?.requested.postingMode, 'queue');
      assert.equal(cleared.approval?.requested.scheduledAt, undefined);
    });

    test('a contributor rescheduling an approved post resubmits it at the new time', async () => {
      const post = await submit('approved, then moved', 'schedule', inDays(1));
      assert.equal((await approve(post.id)).status, 'scheduled');
      const later = inDays(4);
      const edited = await edit(post.id, { message: 'approved, then moved!', scheduledAt: later });
      assert.equal(edited.status, 'pending_approval', 'back for a new decision');
      assert.equal(edited.message, 'approved, then moved!');
      assert.equal(edited.approval?.requested.postingMode, 'schedule');
      assert.equal(time(edited.approval?.requested.scheduledAt), later.getTime());
      const [row] = await ctx.db.select().from(posts).where(eq(posts.id, post.id));
      assert.equal(row?.nextAttemptAt, null, 'the dispatcher never picks it while it waits');

      const approved = await approve(post.id);
      assert.equal(approved.status, 'scheduled');
      assert.equal(time(approved.scheduledAt), later.getTime(), 'approved at the edited time');
    });

    test('a refused edit of an approved post leaves no trace: status, webhook, audit, timeline, mail', async () => {
      const post = await submit('approved, edit refused', 'schedule', inDays(1));
      await approve(post.id);
      const before = await traces(post.id);
      assert.equal(before.row.status, 'scheduled');

      const unknownAccount = { accountIds: [news, crypto.randomUUID()] };
      await assert.rejects(edit(post.id, unknownAccount), refused('accountIds'));
      await assert.rejects(edit(post.id, { media: [{ key: 'no-such-media.png' }] }), refused('media'));
      await assert.rejects(
        edit(post.id, { scheduledAt: new Date(Date.now() - 60_000) }),
        refused('scheduledAt'),
      );
      const afterRefusals = await traces(post.id);
      assert.deepEqual(afterRefusals, before, 'nothing changed');

      // The same edit with a valid body goes back for approval, with its traces.
      const edited = await edit(post.id, { message: 'approved, edit accepted' });
      assert.equal(edited.status, 'pending_approval');
      const after = await traces(post.id);
      assert.equal(after.submittedHooks, before.submittedHooks + 1);
      assert.ok(after.audit.includes('post.submitted') && after.audit.includes('post.updated'));
      assert.ok(after.timeline.includes('submitted') && after.timeline.includes('updated'));
      assert.equal(after.mails, before.mails + 1, 'the owner hears of the submission');
    });

    /** What an edit may leave behind: the row, `post.submitted` deliveries, audit and timeline entries, mails. */
    async function traces(postId: string) {
      const [row] = await ctx.db.select().from(posts).where(eq(posts.id, postId));
      const hooks = await ctx.db
        .select({ body: webhookDeliveries.body })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.workspaceId, workspaceId),
            eq(webhookDeliveries.eventType, 'post.submitted'),
          ),
        );
      const audit = await ctx.db
        .select({ action: auditEntries.action })
        .from(auditEntries)
        .where(eq(auditEntries.targetId, postId));
      const { events } = await listPostTimeline(ctx, workspaceId, postId);
      return {
        row: {
          status: row?.status,
          message: row?.message,
          accountIds: row?.accountIds,
          scheduledAt: row?.scheduledAt?.getTime(),
          nextAttemptAt: row?.nextAttemptAt?.getTime(),
          updatedAt: row?.updatedAt.getTime(),
          approval: row?.approval,
        },
        submittedHooks: hooks.filter(
          (h) => (JSON.parse(h.body) as { data: { id: string } }).data.id === postId,
        ).length,
        audit: audit.map((a) => a.action).sort(),
        timeline: events.map((e) => e.type),
        mails: mail.messages.length,
      };
    }
  });
}
