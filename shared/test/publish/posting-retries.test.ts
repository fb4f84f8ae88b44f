import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { PlatformError } from '../../src/errors.ts';
import { PublisherRegistry } from '../../src/platforms/registry.ts';
import type { AnyPublisher, PublishContext } from '../../src/platforms/types.ts';
import { PostingService } from '../../src/publish/posting.ts';
import { MemoryStorage } from '../platforms/telegram/memory-storage.ts';

/** A publisher that fails retryably once, recording the context of every attempt. */
function flakyPublisher(contexts: PublishContext[]): AnyPublisher {
  return {
    id: 'flaky',
    displayName: 'Flaky',
    optionsSchema: z.object({}),
    credentialsSchema: z.object({}),
    concurrency: 1,
    validate: async () => ({ errors: [], warnings: [] }),
    publish: async (_post, _account, _media, _options, context) => {
      contexts.push(context);
      if (contexts.length === 1) throw new PlatformError('platform_unavailable', 'down');
      return { platformPostId: '1' };
    },
    verifyCredentials: async () => ({ name: 'Flaky' }),
  };
}

describe('PostingService retries', () => {
  for (const hooks of [{}, { idempotencyKey: 'post-1' }]) {
    it(`keeps one idempotency key across attempts (${hooks.idempotencyKey ? 'given' : 'generated'})`, async () => {
      const contexts: PublishContext[] = [];
      const service = new PostingService({
        publishers: new PublisherRegistry([flakyPublisher(contexts)]),
        storage: new MemoryStorage(),
      });
      const account = { id: 'a1', platform: 'flaky', platformAccountId: 'x', credentials: {} };
      const prepared = await service.prepare({ message: 'hi', accountIds: ['a1'], media: [] }, () => account);
      const results = await service.publish(prepared, {
        ...hooks,
        retryPolicy: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, deadline: Date.now() + 5_000 },
      });
      assert.equal(results[0]!.status, 'posted');
      assert.equal(contexts.length, 2);
      assert.equal(contexts[0]!.idempotencyKey, contexts[1]!.idempotencyKey);
      if (hooks.idempotencyKey) assert.equal(contexts[0]!.idempotencyKey, 'post-1:a1');
    });
  }
});
