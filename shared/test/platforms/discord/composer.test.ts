import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PublishResult } from '../../../src/platforms/types.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';
import { context, discordFixture } from './setup.ts';

const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const png = (altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: 'dot.png', contentType: 'image/png' }),
  ...(altText === undefined ? {} : { altText }),
});

const fx = discordFixture();

describe('Discord threads (messages in order)', () => {
  it('posts each part as the next message after its parent: a webhook cannot reply', async () => {
    const root = await fx.publisher.publish({ message: 'part 1' }, fx.account, [], {}, context());
    const second = await fx.publisher.publish(
      { message: 'part 2' },
      fx.account,
      [],
      {},
      context(replyTo(root)),
    );
    await fx.publisher.publish({ message: 'part 3' }, fx.account, [], {}, context(replyTo(second, root)));
    assert.deepEqual(
      fx.fake.messages.map((m) => m.content),
      ['part 1', 'part 2', 'part 3'],
    );
    // No message_reference (Discord ignores it for webhooks): the order is the thread.
    for (const request of fx.fake.executions()) {
      assert.equal((request.body as Record<string, unknown>).message_reference, undefined);
    }
    assert.ok(BigInt(fx.fake.messages[1]!.id) > BigInt(root.platformPostId));
  });

  it('keeps a thread part in the Discord thread the options name', async () => {
    const threadId = fx.fake.createThread();
    const root = await fx.publisher.publish(
      { message: 'in thread' },
      fx.account,
      [],
      { threadId },
      context(),
    );
    await fx.publisher.publish({ message: 'also' }, fx.account, [], { threadId }, context(replyTo(root)));
    assert.deepEqual(
      fx.fake.messages.map((m) => m.channelId),
      [threadId, threadId],
    );
  });
});

describe('Discord alt text', () => {
  it('sends each attachment’s altText as its description', async () => {
    await fx.publisher.publish({ message: 'pics' }, fx.account, [png('A red dot'), png()], {}, context());
    assert.deepEqual(
      fx.fake.messages[0]!.attachments.map((a) => a.description),
      ['A red dot', undefined],
    );
  });

  it('Discord refuses a description over 1024 characters (Invalid Form Body): media_rejected', async () => {
    const error = await rejection(
      fx.publisher.publish({ message: 'long' }, fx.account, [png('x'.repeat(1025))], {}, context()),
    );
    assert.equal(error.code, 'media_rejected');
    assert.equal(error.status, 400);
    assert.match(error.message, /1024/);
    assert.equal(fx.fake.messages.length, 0);
  });
});
