import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PublisherRegistry } from '@postwave/shared';
import { sql } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import { loadConfig } from '#server/config.ts';
import { type AppContext, createContext } from '#server/context.ts';
import { openDatabase } from '#server/db/client.ts';
import { posts } from '#server/db/schema.ts';
import { type DispatchOptions, dispatchDuePosts } from '#server/dispatch/service.ts';
import { actOnPost } from '#server/posts/act-on-post.ts';
import { createPost } from '#server/posts/create-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { listPostTimeline } from '#server/posts/list-post-events.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import {
  type ChainPublisher,
  chainPublisher,
  rejected,
} from '../../../../shared/test/support/chain-publisher.ts';
import { backends, createPostgresDatabase } from '../../helpers/databases.ts';

const dispatch: DispatchOptions = {
  batchSize: 10,
  concurrency: 2,
  timeBudgetMs: 30_000,
  leaseMs: 60_000,
  maxAttempts: 3,
  retryBaseMs: 1,
};

/**
 * What the Scheduler stores to continue a thread: each part's reply reference (a retry replies to
 * the last posted part, read back from the database), and the per-part intent a crashed
 * dispatcher leaves (resumed where the platform dedupes, `unknown` where it cannot). A test-only
 * platform records what it is asked, so the assertions hold for every platform's reply shape.
 */
for (const backend of backends()) {
  describe(`thread resume (${backend})`, () => {
    let ctx: AppContext;
    let stop: () => Promise<void>;
    let workspaceId: string;
    let safe: ChainPublisher;
    let blind: ChainPublisher;
    let failing: string | undefined;
    let safeAccount: string;
    let blindAccount: string;

    before(async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'postwave-thread-'));
      const database = backend === 'postgres' ? await createPostgresDatabase() : undefined;
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        MIGRATIONS_DIR: join(import.meta.dirname, '..', '..', '..', '..', 'drizzle'),
        ...(database ? { DATABASE_URL: database.url } : {}),
      });
      const failOn = (call: { message: string }) => (call.message === failing ? rejected() : undefined);
      safe = chainPublisher({ id: 'chain', dedupe: 'idempotent-resend', failOn });
      blind = chainPublisher({ id: 'blindchain', dedupe: 'none', failOn });
      const publishers = new PublisherRegistry(
        [safe.publisher, blind.publisher],
        [
          ['chain', safe.traits],
          ['blindchain', blind.traits],
        ],
      );
      const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
      ctx = await createContext(config, { database: handle, publishers });
      stop = async () => {
        await ctx.database.close();
        await database?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      };
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `thread-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      const connect = async (platform: string) =>
        (await connectAccount(ctx, workspaceId, { platform, platformAccountId: platform, credentials: {} }))
          .account.id;
      safeAccount = await connect('chain');
      blindAccount = await connect('blindchain');
    });
    after(() => stop?.());

    const thread = (...messages: string[]) => messages.map((message) => ({ message, media: [] }));

    test('a retry replies to the last posted part, read back from the database', async () => {
      failing = 'r three';
      const created = await createPost(ctx, workspaceId, {
        message: 'r one',
        accountIds: [safeAccount],
        postingMode: 'now',
        media: [],
        accountOptions: { [safeAccount]: { firstComment: 'r comment' } },
        thread: thread('r two', 'r three'),
      });
      assert.equal(created.status, 'failed');
      assert.deepEqual(
        created.results[0]!.parts!.map((p) => p.status),
        ['posted', 'posted', 'failed'],
      );
      assert.equal(created.results[0]!.firstComment?.status, 'pending');
      failing = undefined;
      const retried = await actOnPost(ctx, workspaceId, created.id, { postingMode: 'now' });
      assert.equal(retried.status, 'posted');
      const sent = safe.posted().filter((c) => c.message.startsWith('r '));
      assert.deepEqual(
        sent.map((c) => c.message),
        ['r one', 'r two', 'r three', 'r comment'],
        'nothing posted twice',
      );
      const [one, two, three] = sent;
      assert.deepEqual(three!.replyTo, {
        parent: two!.postId,
        root: one!.postId,
        parentRef: `ref:${two!.postId}`,
      });
      assert.equal(three!.idempotencyKey, `${created.id}:${safeAccount}:part:2`);
      assert.equal(retried.results[0]!.firstComment?.status, 'posted');
    });

    /** A dispatcher died after recording parts 0 and 1 and the intent of part 2. */
    async function crashedMidThread(
      accountId: string,
      platform: string,
      prefix: string,
      accountOptions: Record<string, Record<string, unknown>> = {},
    ) {
      const id = crypto.randomUUID();
      const past = new Date(Date.now() - 1000);
      await ctx.db.insert(posts).values({
        id,
        workspaceId,
        status: 'scheduled',
        message: `${prefix} one`,
        accountIds: [accountId],
        media: [],
        accountOptions,
        thread: thread(`${prefix} two`, `${prefix} three`),
        scheduledAt: past,
        nextAttemptAt: past,
        leaseOwner: 'crashed',
        leaseExpiresAt: past,
        attempts: 1,
        createdAt: past,
        updatedAt: past,
      });
      const parts = [0, 1].map((index) => ({
        index,
        status: 'posted',
        platformPostId: `${prefix}-${index}`,
        replyRef: `ref:${prefix}-${index}`,
      }));
      await ctx.db.execute(sql`
        INSERT INTO post_targets (post_id, account_id, platform, status, claim_owner, dedupe_handle, parts, attempts, updated_at)
        VALUES (${id}, ${accountId}, ${platform}, 'publishing', 'crashed', 'handle-of-part-2',
          ${JSON.stringify(parts)}::jsonb, 1, now())`);
      return id;
    }

    test('a crash mid-thread resumes the part in flight with its stored handle where the platform dedupes', async () => {
      const id = await crashedMidThread(safeAccount, 'chain', 'crash');
      await dispatchDuePosts(ctx, dispatch);
      const post = await getPost(ctx, workspaceId, id);
      assert.equal(post.status, 'posted');
      const sent = safe.calls.filter((c) => c.message.startsWith('crash '));
      assert.deepEqual(
        sent.map((c) => c.message),
        ['crash three'],
        'parts 0 and 1 are not sent again',
      );
      assert.equal(sent[0]!.dedupeHandle, 'handle-of-part-2');
      assert.equal(sent[0]!.resumed, true);
      assert.deepEqual(sent[0]!.replyTo, { parent: 'crash-1', root: 'crash-0', parentRef: 'ref:crash-1' });
      assert.deepEqual(
        post.results[0]!.parts!.map((p) => [p.index, p.status, p.platformPostId]),
        [
          [0, 'posted', 'crash-0'],
          [1, 'posted', 'crash-1'],
          [2, 'posted', sent[0]!.postId],
        ],
      );
    });

    test('where the platform cannot dedupe, the part in flight is unknown and nothing is sent', async () => {
      const id = await crashedMidThread(blindAccount, 'blindchain', 'lost', {
        [blindAccount]: { firstComment: 'lost comment' },
      });
      await dispatchDuePosts(ctx, dispatch);
      const post = await getPost(ctx, workspaceId, id);
      assert.equal(post.status, 'failed');
      const [result] = post.results;
      assert.equal(result!.status, 'unknown');
      assert.deepEqual(
        result!.parts!.map((p) => p.status),
        ['posted', 'posted', 'unknown'],
      );
      assert.equal(result!.firstComment?.status, 'pending', 'the comment comes after the part in flight');
      assert.equal(blind.calls.filter((c) => c.message.startsWith('lost ')).length, 0);
      // "Post again" continues from the unknown part: the posted ones stay as they are.
      const again = await actOnPost(ctx, workspaceId, id, { resolveUnknown: 'post_again' });
      assert.equal(again.status, 'posted');
      assert.deepEqual(
        blind.posted().map((c) => c.message),
        ['lost three', 'lost comment'],
      );
      assert.equal(again.results[0]!.firstComment?.status, 'posted');
      // The timeline says so (contract F): `unknown` beside the attempt that could not be known;
      // "post again" settles it as failed and sends the part and then the first comment.
      const types = (await listPostTimeline(ctx, workspaceId, id)).events
        .filter((e) => e.accountId === blindAccount)
        .map((e) => [e.type, e.outcome ?? null]);
      assert.deepEqual(types, [
        ['attempt', 'unknown'],
        ['unknown', 'unknown'],
        ['resolved', 'failed'],
        ['attempt', 'posted'],
        ['attempt', 'posted'],
        ['comment_posted', 'posted'],
      ]);
    });
  });
}
