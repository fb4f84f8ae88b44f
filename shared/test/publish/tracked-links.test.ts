import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { PlatformError } from '../../src/errors.ts';
import type { TrackedLink } from '../../src/links/track.ts';
import { PublisherRegistry } from '../../src/platforms/registry.ts';
import type { AnyPublisher } from '../../src/platforms/types.ts';
import { PostingService } from '../../src/publish/posting.ts';
import { MemoryStorage } from '../platforms/telegram/memory-storage.ts';

/** A publisher counting characters in full (links too), limit `max`; fails retryably once if asked. */
function countingPublisher(max: number, sent: string[], failOnce = false): AnyPublisher {
  let failed = !failOnce;
  return {
    id: 'plain',
    displayName: 'Plain',
    optionsSchema: z.object({}),
    credentialsSchema: z.object({}),
    concurrency: 1,
    validate: async (post) => ({
      errors:
        post.message.length > max ? [{ code: 'text_too_long', message: 'too long', path: 'message' }] : [],
      warnings: [],
    }),
    publish: async (post) => {
      if (!failed) {
        failed = true;
        throw new PlatformError('platform_unavailable', 'down');
      }
      sent.push(post.message);
      return { platformPostId: String(sent.length) };
    },
    verifyCredentials: async () => ({ name: 'Plain' }),
  };
}

const account = { id: 'a1', platform: 'plain', platformAccountId: 'p', credentials: {} };
const policy = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1, deadline: Date.now() + 60_000 };

async function publish(
  max: number,
  sent: string[],
  shorten: (long: string) => Promise<string>,
  failOnce = false,
) {
  const service = new PostingService({
    publishers: new PublisherRegistry([countingPublisher(max, sent, failOnce)]),
    storage: new MemoryStorage(),
  });
  const prepared = await service.prepare(
    {
      message: 'See https://ex.com/a',
      accountIds: ['a1'],
      media: [],
    },
    () => account,
  );
  assert.ok(prepared.targets, JSON.stringify(prepared.validation));
  const tracked: TrackedLink[][] = [];
  const [result] = await service.publish(prepared, {
    retryPolicy: policy,
    linkTracking: async () => ({ utm: { source: '{platform}', medium: 'social' }, shorten }),
    onLinksTracked: async (_id, links) => {
      tracked.push(links);
    },
  });
  return { result: result!, tracked };
}

describe('PostingService: tracked links', () => {
  it('sends the short link, tracked once per publish although the send is retried', async () => {
    const sent: string[] = [];
    const asked: string[] = [];
    const { result, tracked } = await publish(
      100,
      sent,
      async (long) => {
        asked.push(long);
        return 'https://s.test/1';
      },
      true,
    );
    assert.equal(result.status, 'posted');
    assert.deepEqual(asked, ['https://ex.com/a?utm_source=plain&utm_medium=social']);
    assert.deepEqual(sent, ['See https://s.test/1']);
    assert.equal(tracked.length, 1);
    assert.deepEqual(result.links, [
      {
        url: 'https://ex.com/a',
        longUrl: 'https://ex.com/a?utm_source=plain&utm_medium=social',
        shortUrl: 'https://s.test/1',
      },
    ]);
    assert.equal(result.warnings, undefined);
  });

  it('a failing shortener leaves the UTM’d long link with a warning', async () => {
    const sent: string[] = [];
    const { result } = await publish(100, sent, async () => {
      throw new Error('boom');
    });
    assert.equal(result.status, 'posted');
    assert.equal(sent[0], 'See https://ex.com/a?utm_source=plain&utm_medium=social');
    assert.equal(result.warnings?.[0]?.code, 'link_not_shortened');
  });

  it('a final text over the limit is sent as written, with links_not_tracked', async () => {
    const sent: string[] = [];
    // 30 characters: the written text fits, the long UTM'd one does not (the shortener is down).
    const { result, tracked } = await publish(30, sent, async () => {
      throw new Error('down');
    });
    assert.equal(result.status, 'posted');
    assert.equal(sent[0], 'See https://ex.com/a');
    assert.equal(result.warnings?.[0]?.code, 'links_not_tracked');
    assert.equal(tracked[0]![0]!.postedUrl, 'https://ex.com/a');
  });
});
