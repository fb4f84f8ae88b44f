import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PublisherRegistry } from '@postwave/shared';
import { parse as parseCsv } from 'csv-parse/sync';
import { and, eq } from 'drizzle-orm';
import { connectAccount } from '#server/accounts/connect-account.ts';
import type { AppContext } from '#server/context.ts';
import { postTargets, targetLinks } from '#server/db/schema.ts';
import { exportPosts } from '#server/exports/service.ts';
import { createPost } from '#server/posts/create-post.ts';
import { getPost } from '#server/posts/get-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { chainPublisher } from '../../../../shared/test/support/chain-publisher.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

const readAll = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/**
 * Contract E: the export streams posts "with their results", and a result is the Post resource's
 * result (thread parts, first comment, platform details, tracked links with clicks, warnings).
 * The same post read through `GET /api/v1/posts/{id}` is the reference.
 */
for (const backend of backends()) {
  describe(`export results (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    let workspaceId: string;
    let account: string;

    before(async () => {
      const chain = chainPublisher({ id: 'chain' });
      const publishers = new PublisherRegistry([chain.publisher], [['chain', chain.traits]]);
      harness = await startServices(backend, {}, 1, { publishers });
      ctx = harness.ctx;
      workspaceId = (
        await signUpWithWorkspace(ctx, {
          email: `export-${backend}@example.com`,
          password: 'long enough password',
        })
      ).id;
      account = (
        await connectAccount(ctx, workspaceId, {
          platform: 'chain',
          platformAccountId: 'chain',
          credentials: {},
        })
      ).account.id;
    });
    after(() => harness?.stop());

    test('an exported result carries every field GET /api/v1/posts/{id} shows', async () => {
      const posted = await createPost(ctx, workspaceId, {
        message: 'export one https://example.com/a',
        accountIds: [account],
        postingMode: 'now',
        media: [],
        accountOptions: { [account]: { firstComment: 'export comment' } },
        thread: [{ message: 'export two', media: [] }],
      });
      assert.equal(posted.status, 'posted');
      // What publishing leaves beyond the post id: platform details, a tracked short link that
      // collected clicks, and a link posted long with a warning saying why.
      await ctx.db
        .update(postTargets)
        .set({ details: { relays: [{ url: 'wss://relay.test', status: 'accepted' }] } })
        .where(and(eq(postTargets.postId, posted.id), eq(postTargets.accountId, account)));
      const now = new Date();
      await ctx.db.insert(targetLinks).values([
        {
          postId: posted.id,
          accountId: account,
          url: 'https://example.com/a',
          longUrl: 'https://example.com/a?utm_source=postwave',
          shortUrl: 'https://sho.rt/a',
          provider: 'dub',
          ref: 'link_a',
          clicks: 7,
          createdAt: now,
          updatedAt: now,
        },
        {
          postId: posted.id,
          accountId: account,
          url: 'https://example.com/b',
          longUrl: 'https://example.com/b',
          warning: { code: 'link_not_shortened', message: 'the shortener did not answer' },
          createdAt: new Date(now.getTime() + 1),
          updatedAt: now,
        },
      ]);

      const reference = await getPost(ctx, workspaceId, posted.id);
      const [result] = reference.results;
      assert.ok(result?.parts?.length === 2, 'the reference shows both thread parts');
      assert.equal(result.firstComment?.status, 'posted');
      assert.deepEqual(result.details, { relays: [{ url: 'wss://relay.test', status: 'accepted' }] });
      assert.equal(result.links?.[0]?.clicks, 7);
      assert.equal(result.warnings?.[0]?.code, 'link_not_shortened');

      const json = JSON.parse(await readAll(exportPosts(ctx, workspaceId, 'json', {}))) as {
        id: string;
        results: unknown;
        staging: unknown;
      }[];
      const exported = json.find((p) => p.id === posted.id);
      assert.ok(exported, 'the post is exported');
      assert.deepEqual(exported.results, reference.results);
      assert.deepEqual(exported.staging, reference.staging);

      const rows = parseCsv(await readAll(exportPosts(ctx, workspaceId, 'csv', {})), {
        columns: true,
      }) as Record<string, string>[];
      const row = rows.find((r) => r.id === posted.id);
      assert.ok(row, 'the post is a CSV row');
      assert.deepEqual(JSON.parse(row.results!), reference.results);
    });
  });
}
