import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { PostingService } from '../../../src/publish/posting.ts';
import type { Storage } from '../../../src/storage/types.ts';
import type { FakeMastodon } from '../../fakes/mastodon.ts';
import { account, fastRetries, publisherFor, startMastodon } from './setup.ts';

let fake: FakeMastodon;
before(async () => {
  fake = await startMastodon();
});
after(() => fake.close());

/** Text-only posts never touch storage. */
const noStorage = new Proxy({} as Storage, {
  get: () => {
    throw new Error('storage must not be used for a text-only post');
  },
});

describe('Mastodon through the PostingService', () => {
  it('retries a 429 with the same per-target Idempotency-Key and posts once', async () => {
    const service = new PostingService({
      publishers: new PublisherRegistry([publisherFor()]),
      storage: noStorage,
    });
    const target = account(fake);
    const prepared = await service.prepare(
      { message: 'Hello', accountIds: [target.id], media: [] },
      () => target,
    );
    assert.equal(prepared.validation.valid, true);

    fake.rateLimit({ path: /^\/api\/v1\/statuses$/, resetInMs: 10 });
    const [result] = await service.publish(prepared, {
      idempotencyKey: 'req-42',
      retryPolicy: fastRetries(),
    });

    assert.equal(result!.status, 'posted');
    const keys = fake.calls('/api/v1/statuses').map((r) => r.headers['idempotency-key']);
    assert.deepEqual(keys, ['req-42:masto-1', 'req-42:masto-1']);
    assert.equal(fake.statuses.length, 1);
    assert.equal(result!.platformPostId, fake.statuses[0]!.id);
  });

  it('reports a text over the instance limit as invalid before anything is sent', async () => {
    const service = new PostingService({
      publishers: new PublisherRegistry([publisherFor()]),
      storage: noStorage,
    });
    const target = account(fake);
    const before = fake.calls('/api/v1/statuses').length;
    const prepared = await service.prepare(
      { message: 'a'.repeat(501), accountIds: [target.id], media: [] },
      () => target,
    );
    assert.equal(prepared.validation.valid, false);
    assert.deepEqual(
      prepared.validation.results[0]!.errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.equal(fake.calls('/api/v1/statuses').length, before);
  });
});
