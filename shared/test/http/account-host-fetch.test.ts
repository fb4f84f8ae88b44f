import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PlatformError } from '../../src/errors.ts';
import { createSafeFetch, parseAllowedPrivateHosts } from '../../src/http/index.ts';
import type { FakeMastodon } from '../fakes/mastodon.ts';
import { account, context, publisherFor, startMastodon } from '../platforms/mastodon/setup.ts';

/**
 * The fetch a caller injects for account-named hosts is the one used for connect, validation and
 * publishing (the Scheduler injects the safe fetch; the self-hosted server injects nothing).
 */
describe('accountHostFetch reaches every call to an account-named host', () => {
  let fake: FakeMastodon;
  before(async () => {
    fake = await startMastodon();
  });
  after(() => fake?.close());

  const strict = createSafeFetch();
  const allowed = createSafeFetch({ allowPrivateHosts: parseAllowedPrivateHosts('127.0.0.1') });

  test('a refused host: verify, validate and publish send nothing', async () => {
    const publisher = publisherFor();
    const before = fake.server.requests.length;
    await assert.rejects(
      publisher.verifyCredentials(account(fake), {
        signal: AbortSignal.timeout(10_000),
        accountHostFetch: strict,
      }),
      (e: unknown) => e instanceof PlatformError && e.code === 'target_unreachable' && !e.retryable,
    );
    const outcome = await publisher.validate(
      { message: 'hi' },
      account(fake),
      [],
      {},
      { accountHostFetch: strict },
    );
    assert.ok(outcome.warnings.some((w) => w.code === 'instance_limits_unknown'));
    await assert.rejects(
      publisher.publish({ message: 'hi' }, account(fake), [], {}, { ...context(), accountHostFetch: strict }),
      (e: unknown) => e instanceof PlatformError && e.code === 'target_unreachable',
    );
    assert.equal(fake.server.requests.length, before, 'no request reached the instance');
  });

  test('an allowed host works end to end through the safe fetch', async () => {
    const publisher = publisherFor();
    const profile = await publisher.verifyCredentials(account(fake), {
      signal: AbortSignal.timeout(10_000),
      accountHostFetch: allowed,
    });
    assert.equal(profile.username, `@alice@${new URL(fake.url).host}`);
    const result = await publisher.publish(
      { message: 'guarded' },
      account(fake),
      [],
      {},
      {
        ...context(),
        accountHostFetch: allowed,
      },
    );
    assert.ok(result.platformPostId);
    assert.equal(fake.statuses.at(-1)?.text, 'guarded');
  });
});
