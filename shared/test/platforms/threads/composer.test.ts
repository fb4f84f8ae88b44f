import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishResult } from '../../../src/platforms/types.ts';
import { rejection } from '../../support/platform-testing.ts';
import { publishContext, threadsAccount, threadsFixture } from './setup.ts';

const fx = threadsFixture({ processingPolls: 1 });

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const containerOf = (result: PublishResult) =>
  fx.fake.containers.get(fx.fake.posts.find((p) => p.id === result.platformPostId)!.containerId)!;

describe('Threads threads and first comments (replies)', () => {
  it('creates each part’s container with reply_to_id set to the part before it', async () => {
    const root = await fx.publisher.publish(
      { message: 'part 1' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const second = await fx.publisher.publish(
      { message: 'part 2' },
      threadsAccount(fx.fake),
      [fx.host.png()],
      {},
      publishContext(replyTo(root)),
    );
    const third = await fx.publisher.publish(
      { message: 'part 3' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(replyTo(second, root)),
    );
    assert.equal(containerOf(root).replyToId, undefined);
    assert.equal(containerOf(second).replyToId, root.platformPostId);
    assert.equal(containerOf(third).replyToId, second.platformPostId);
    assert.equal(fx.fake.posts.find((p) => p.id === third.platformPostId)!.replyToId, second.platformPostId);
  });

  it('a reply to a deleted post is refused when the container is created: nothing published', async () => {
    const root = await fx.publisher.publish(
      { message: 'soon gone' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    fx.fake.deletePost(root.platformPostId);
    const before = fx.fake.posts.length;
    const error = await rejection(
      fx.publisher.publish(
        { message: 'orphan' },
        threadsAccount(fx.fake),
        [],
        {},
        publishContext(replyTo(root)),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /reply_to_id/);
    assert.equal(fx.fake.posts.length, before);
  });

  it('a resumed reply part finds its post among the profile’s replies, never publishing it twice', async () => {
    const root = await fx.publisher.publish(
      { message: 'root' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const since = new Date();
    const first = await fx.publisher.publish(
      { message: 'reply before the crash' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(replyTo(root)),
    );
    fx.fake.server.requests.length = 0;
    const resumed = await fx.publisher.publish(
      { message: 'reply before the crash' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext({ ...replyTo(root), resumed: { since } }),
    );
    assert.equal(resumed.platformPostId, first.platformPostId);
    assert.equal(fx.fake.requestsTo('GET', /\/replies$/).length, 1);
    assert.equal(fx.fake.requestsTo('POST', /\/threads$/).length, 0);
  });

  it('a staged container stays valid only for the reply target it was built for', async () => {
    const root = await fx.publisher.publish(
      { message: 'root' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const other = await fx.publisher.publish(
      { message: 'other' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const staged = await fx.publisher.stage!(
      { message: 'staged reply' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(replyTo(root)),
    );
    const result = await fx.publisher.publish(
      { message: 'staged reply' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext({ ...replyTo(other), staged: staged.handle }),
    );
    assert.notEqual(containerOf(result).id, JSON.parse(staged.handle).container);
    assert.equal(containerOf(result).replyToId, other.platformPostId);
  });

  it('accepts firstComment as an option (the posting service sends it as a reply)', () => {
    assert.equal(fx.publisher.optionsSchema.parse({ firstComment: 'More below' }).firstComment, 'More below');
  });
});

describe('Threads alt text', () => {
  it('sends alt_text on image and video containers, carousel items included', async () => {
    const single = await fx.publisher.publish(
      { message: 'one' },
      threadsAccount(fx.fake),
      [{ ...fx.host.png(), altText: 'A red dot' }],
      {},
      publishContext(),
    );
    assert.equal(containerOf(single).altText, 'A red dot');

    const carousel = await fx.publisher.publish(
      { message: 'two' },
      threadsAccount(fx.fake),
      [{ ...fx.host.jpeg(), altText: 'A jpeg' }, fx.host.png(), { ...fx.host.mp4(), altText: 'A clip' }],
      {},
      publishContext(),
    );
    const items = containerOf(carousel).children.map((id) => fx.fake.containers.get(id)!.altText);
    assert.deepEqual(items, ['A jpeg', undefined, 'A clip']);
    assert.equal(containerOf(carousel).altText, undefined);
  });

  it('Threads refuses alt text over 1000 characters: content_rejected, nothing published', async () => {
    const before = fx.fake.posts.length;
    const error = await rejection(
      fx.publisher.publish(
        { message: 'long alt' },
        threadsAccount(fx.fake),
        [{ ...fx.host.png(), altText: 'x'.repeat(1001) }],
        {},
        publishContext(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /alt_text/);
    assert.equal(fx.fake.posts.length, before);
  });
});
