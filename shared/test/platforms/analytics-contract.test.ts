import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountMetricNames, postMetricNames } from '../../src/platforms/manifest.ts';
import { PublisherRegistry, platformModules } from '../../src/platforms/registry.ts';

/**
 * Contract section H: what a manifest's `analytics` declares is what its publisher collects, in
 * the canonical metric names, so the Scheduler asks only platforms that answer.
 */
describe('the analytics declaration', () => {
  const publishers = PublisherRegistry.fromEnv({});

  it('is in every manifest (empty lists when the platform reports nothing), with only canonical metric names, each once', () => {
    for (const { id, manifest } of platformModules) {
      const analytics = manifest.analytics;
      assert.ok(
        Array.isArray(analytics?.post) && Array.isArray(analytics?.account),
        `${id} declares analytics`,
      );
      for (const name of analytics.post) assert.ok(postMetricNames.includes(name), `${id}: ${name}`);
      for (const name of analytics.account) assert.ok(accountMetricNames.includes(name), `${id}: ${name}`);
      assert.equal(new Set(analytics.post).size, analytics.post.length, id);
    }
  });

  it('a publisher collects post metrics exactly when its manifest lists some, and account metrics likewise', () => {
    for (const { id, manifest } of platformModules) {
      const publisher = publishers.get(id)!;
      assert.equal(typeof publisher.metrics === 'function', (manifest.analytics?.post.length ?? 0) > 0, id);
      assert.equal(
        typeof publisher.accountMetrics === 'function',
        (manifest.analytics?.account.length ?? 0) > 0,
        id,
      );
    }
  });

  it('the platforms of issue 27 declare their analytics (Discord: none)', () => {
    const declared = (id: string) => platformModules.find((m) => m.id === id)?.manifest.analytics;
    for (const id of [
      'telegram',
      'bluesky',
      'mastodon',
      'x',
      'threads',
      'linkedin',
      'facebook',
      'instagram',
      'youtube',
    ])
      assert.ok(declared(id), id);
    assert.deepEqual(declared('discord'), { post: [], account: [] });
  });
});
