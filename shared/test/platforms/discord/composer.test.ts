import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { discordConfigFromEnv } from '../../../src/platforms/discord/config.ts';
import { createDiscordPublisher } from '../../../src/platforms/discord/index.ts';
import type { PlatformAccount, PublishContext, PublishResult } from '../../../src/platforms/types.ts';
import { type FakeDiscord, startFakeDiscord } from '../../fakes/discord.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

let fake: FakeDiscord;
let publisher: ReturnType<typeof createDiscordPublisher>;
let account: PlatformAccount;

const context = (extra: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(10_000),
  idempotencyKey: 'post-1:d1',
  logger: silentLogger,
  ...extra,
});
const replyTo = (parent: PublishResult, root: PublishResult = parent) => ({ replyTo: { parent, root } });
const png = (altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: 'dot.png', contentType: 'image/png' }),
  ...(altText === undefined ? {} : { altText }),
});

before(async () => {
  fake = await startFakeDiscord();
  publisher = createDiscordPublisher(discordConfigFromEnv(fake.env()));
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.messages.length = 0;
  fake.server.requests.length = 0;
  account = {
    id: 'd1',
    platform: 'discord',
    platformAccountId: fake.webhook.channelId,
    credentials: { webhookUrl: fake.webhookUrl() },
  };
});

describe('Discord threads (messages in order)', () => {
  it('posts each part as the next message after its parent: a webhook cannot reply', async () => {
    const root = await publisher.publish({ message: 'part 1' }, account, [], {}, context());
    const second = await publisher.publish({ message: 'part 2' }, account, [], {}, context(replyTo(root)));
    await publisher.publish({ message: 'part 3' }, account, [], {}, context(replyTo(second, root)));
    assert.deepEqual(
      fake.messages.map((m) => m.content),
      ['part 1', 'part 2', 'part 3'],
    );
    // No message_reference (Discord ignores it for webhooks): the order is the thread.
    for (const request of fake.executions()) {
      assert.equal((request.body as Record<string, unknown>).message_reference, undefined);
    }
    assert.ok(BigInt(fake.messages[1]!.id) > BigInt(root.platformPostId));
  });

  it('keeps a thread part in the Discord thread the options name', async () => {
    const threadId = fake.createThread();
    const root = await publisher.publish({ message: 'in thread' }, account, [], { threadId }, context());
    await publisher.publish({ message: 'also' }, account, [], { threadId }, context(replyTo(root)));
    assert.deepEqual(
      fake.messages.map((m) => m.channelId),
      [threadId, threadId],
    );
  });
});

describe('Discord alt text', () => {
  it('sends each attachment’s altText as its description', async () => {
    await publisher.publish({ message: 'pics' }, account, [png('A red dot'), png()], {}, context());
    assert.deepEqual(
      fake.messages[0]!.attachments.map((a) => a.description),
      ['A red dot', undefined],
    );
  });

  it('Discord refuses a description over 1024 characters (Invalid Form Body): media_rejected', async () => {
    const error = await rejection(
      publisher.publish({ message: 'long' }, account, [png('x'.repeat(1025))], {}, context()),
    );
    assert.equal(error.code, 'media_rejected');
    assert.equal(error.status, 400);
    assert.match(error.message, /1024/);
    assert.equal(fake.messages.length, 0);
  });
});
