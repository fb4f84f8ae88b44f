import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context.ts';
import { reviewLinks } from '#server/db/schema.ts';
import { createPost } from '#server/posts/create-post.ts';
import { openReviewLink } from '#server/review/access.ts';
import { createReviewLink } from '#server/review/links.ts';
import { hashSecret } from '#server/security/tokens.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/** A review link stops working when it expires (docs/workspaces.md#review-links); stored hashed. */
for (const backend of backends()) {
  describe(`review link expiry (${backend})`, () => {
    let harness: ServiceHarness;
    let ctx: AppContext;
    before(async () => {
      harness = await startServices(backend, {});
      ctx = harness.ctx;
    });
    after(() => harness?.stop());

    test('a live link opens; the same link past its expiry is 404; only the hash is stored', async () => {
      const user = await signUpWithWorkspace(ctx, {
        email: `review-${backend}@example.com`,
        password: 'long enough password',
      });
      const post = await createPost(
        ctx,
        user.workspaceId,
        {
          message: 'for the client',
          accountIds: [],
          postingMode: 'draft',
          media: [],
          accountOptions: {},
        } as never,
        user.userId,
      );
      const created = await createReviewLink(
        ctx,
        { workspaceId: user.workspaceId, userId: user.userId },
        post.id,
        {
          expiresInHours: 1,
        },
      );
      const token = decodeURIComponent(new URL(created.url).pathname.split('/').pop()!);
      assert.ok(token.startsWith('pwr_') && token.length >= 4 + 43, 'at least 256 random bits');
      const [stored] = await ctx.db.select().from(reviewLinks).where(eq(reviewLinks.id, created.id));
      assert.equal(stored!.tokenHash, hashSecret(token));
      assert.ok(!JSON.stringify(stored).includes(token));
      const opened = await openReviewLink(ctx, token, `198.51.100.${backend.length}`);
      assert.equal(opened.id, created.id);

      await ctx.db
        .update(reviewLinks)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(reviewLinks.id, created.id));
      await assert.rejects(
        openReviewLink(ctx, token, '198.51.100.1'),
        (e: { problem?: { status: number } }) => {
          assert.equal(e.problem?.status, 404);
          return true;
        },
      );
    });
  });
}
