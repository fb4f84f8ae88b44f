import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeX, startFakeX } from '@postwave/shared/testing';
import { connectAccount } from '#server/accounts/service.ts';
import { runCollection } from '#server/analytics/collector.ts';
import { getPostMetrics } from '#server/analytics/get-post-metrics.ts';
import { refreshPostMetrics } from '#server/analytics/refresh-post-metrics.ts';
import { createPost } from '#server/posts/create-post.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';
import { backends } from '../../helpers/databases.ts';
import { type ServiceHarness, startServices } from '../../helpers/service-context.ts';

/*
 * ANALYTICS_ENABLED=false (docs/scheduler.md): nothing is asked of the platforms, on request any
 * more than on schedule; what was collected stays readable.
 */
const notSupported = (error: unknown) =>
  (error as { problem?: { code?: string; status?: number } }).problem?.code === 'not_supported';

for (const backend of backends()) {
  describe(`analytics turned off (${backend})`, () => {
    let x: FakeX;
    let harness: ServiceHarness;
    before(async () => {
      x = await startFakeX();
      harness = await startServices(backend, { ...x.env(), ANALYTICS_ENABLED: 'false' });
    });
    after(async () => {
      await harness?.stop();
      await x?.close();
    });

    test('a refresh and a collection run answer 501 not_supported and call no platform', async () => {
      const { ctx } = harness;
      const workspace = await signUpWithWorkspace(ctx, {
        email: `off-${backend}@example.com`,
        password: 'long enough password',
      });
      const { account } = await connectAccount(ctx, workspace.id, {
        platform: 'x',
        credentials: x.credentials(),
      });
      const post = await createPost(ctx, workspace.id, {
        message: 'figures, please',
        accountIds: [account.id],
        postingMode: 'now',
        media: [],
        accountOptions: {},
      });
      const lookups = () => x.requestsTo('GET', /^\/2\/tweets$/).length;
      const before = lookups();
      await assert.rejects(refreshPostMetrics(ctx, workspace.id, post.id), notSupported);
      await assert.rejects(runCollection(ctx), notSupported);
      assert.equal(lookups(), before, 'no metrics lookup reached the platform');
      // Reading stays as it was: the post's targets, with no figures.
      const metrics = await getPostMetrics(ctx, workspace.id, post.id);
      assert.equal(metrics.targets.length, 1);
    });
  });
}
