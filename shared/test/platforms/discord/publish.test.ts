import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlatformError } from '../../../src/errors.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { fastRetries as policy, rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, discordFixture, maxFileBytes } from './setup.ts';

const fx = discordFixture();

describe('Discord publishing', () => {
  it('posts text and returns the message id and jump URL', async () => {
    const result = await fx.publisher.publish(
      { message: 'Hello **Discord**' },
      fx.account,
      [],
      {},
      context(),
    );
    const [message] = fx.fake.messages;
    assert.equal(message?.content, 'Hello **Discord**');
    assert.equal(result.platformPostId, message.id);
    assert.equal(
      result.url,
      `https://discord.com/channels/${fx.fake.webhook.guildId}/${fx.fake.webhook.channelId}/${message.id}`,
    );
    const execute = fx.fake.executions()[0]!;
    assert.equal(execute.query.get('wait'), 'true');
    assert.match(String(execute.headers['content-type']), /application\/json/);
  });

  it('uploads files as multipart with payload_json and exact bytes', async () => {
    const photo = patternBytes(maxFileBytes, 7);
    const media = [
      memoryMedia(photo, { filename: 'photo.png', contentType: 'image/png' }),
      memoryMedia(patternBytes(300, 9), { filename: 'clip', contentType: 'video/mp4' }),
    ];
    await fx.publisher.publish({ message: 'With files' }, fx.account, media, {}, context());
    const [message] = fx.fake.messages;
    assert.deepEqual(
      message?.attachments.map((a) => [a.filename, a.contentType, a.bytes.length]),
      [
        ['photo.png', 'image/png', maxFileBytes],
        ['clip.mp4', 'video/mp4', 300],
      ],
    );
    assert.deepEqual(new Uint8Array(message!.attachments[0]!.bytes), photo);
    const payload = JSON.parse((fx.fake.executions()[0]!.body as { payload_json: string }).payload_json);
    assert.deepEqual(payload, {
      content: 'With files',
      attachments: [
        { id: 0, filename: 'photo.png' },
        { id: 1, filename: 'clip.mp4' },
      ],
    });
  });

  it('sends username, avatar and thread', async () => {
    const threadId = fx.fake.createThread();
    const result = await fx.publisher.publish(
      { message: 'In a thread' },
      fx.account,
      [],
      { username: 'Release notes', avatarUrl: 'https://example.com/a.png', threadId },
      context(),
    );
    const [message] = fx.fake.messages;
    assert.equal(message?.channelId, threadId);
    assert.equal(message?.username, 'Release notes');
    assert.equal(message?.avatarUrl, 'https://example.com/a.png');
    assert.equal(fx.fake.executions()[0]!.query.get('thread_id'), threadId);
    assert.ok(result.url?.endsWith(`/${threadId}/${message!.id}`));
  });

  it('omits the jump URL when the webhook has no guild', async () => {
    const webhook = fx.fake.createWebhook({ guildId: null });
    const result = await fx.publisher.publish(
      { message: 'x' },
      { ...fx.account, credentials: { webhookUrl: fx.fake.webhookUrl(webhook) } },
      [],
      {},
      context(),
    );
    assert.equal(result.url, undefined);
    assert.ok(result.platformPostId);
  });

  it('honours retry_after on 429 and then posts', async () => {
    fx.fake.rateLimitNext({ retryAfter: 0.03, global: true });
    const seen: number[] = [];
    const started = Date.now();
    const result = await withRetry(
      () =>
        fx.publisher.publish({ message: 'after the limit' }, fx.account, [], {}, context()).catch((error) => {
          seen.push((error as PlatformError).retryAfterMs ?? -1);
          throw error;
        }),
      { ...policy(), baseDelayMs: 5_000, maxDelayMs: 5_000 },
    );
    assert.deepEqual(seen, [30]);
    assert.ok(Date.now() - started >= 30);
    assert.ok(Date.now() - started < 2_000, 'waited retry_after, not the backoff');
    assert.equal(fx.fake.executions().length, 2);
    assert.equal(fx.fake.messages.length, 1);
    assert.equal(result.platformPostId, fx.fake.messages[0]!.id);
  });

  it('retries 5xx and gives up after the policy', async () => {
    fx.fake.failNext(502);
    await withRetry(() => fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()), policy());
    assert.equal(fx.fake.executions().length, 2);

    fx.fake.server.requests.length = 0;
    fx.fake.failNext(503, 5);
    const error = await rejection(
      withRetry(() => fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()), policy()),
    );
    assert.equal(error.code, 'platform_unavailable');
    assert.equal(error.retryable, true);
    assert.equal(fx.fake.executions().length, 3);
  });

  it('maps a wrong token to credentials_invalid without retrying or leaking the token', async () => {
    const wrong = { ...fx.account, credentials: { webhookUrl: `${fx.fake.webhookUrl()}x` } };
    const error = await rejection(
      withRetry(() => fx.publisher.publish({ message: 'x' }, wrong, [], {}, context()), policy()),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(error.retryable, false);
    assert.equal(fx.fake.executions().length, 1);
    assert.ok(!JSON.stringify(error.toJSON()).includes(fx.fake.webhook.token));
    assert.ok(!error.message.includes(fx.fake.webhook.token));
  });

  it('maps a deleted webhook and an unknown thread to target_unreachable', async () => {
    const gone = fx.fake.createWebhook();
    const goneAccount = { ...fx.account, credentials: { webhookUrl: fx.fake.webhookUrl(gone) } };
    fx.fake.deleteWebhook(gone);
    const error = await rejection(fx.publisher.publish({ message: 'x' }, goneAccount, [], {}, context()));
    assert.equal(error.code, 'target_unreachable');
    assert.match(error.message, /Unknown Webhook/);

    const thread = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { threadId: '1234567890123456789' }, context()),
    );
    assert.equal(thread.code, 'target_unreachable');
  });

  it("classifies Discord's own refusals when validation was bypassed", async () => {
    const long = await rejection(
      withRetry(
        () => fx.publisher.publish({ message: 'a'.repeat(2001) }, fx.account, [], {}, context()),
        policy(),
      ),
    );
    assert.equal(long.code, 'content_rejected');
    assert.match(long.message, /content: Must be 2000 or fewer in length/);
    assert.equal(fx.fake.executions().length, 1);

    const files = Array.from({ length: 11 }, (_, n) =>
      memoryMedia(new Uint8Array(4), { filename: `f${n}.png`, contentType: 'image/png' }),
    );
    const tooMany = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, files, {}, context()));
    assert.equal(tooMany.code, 'media_rejected');

    const big = memoryMedia(new Uint8Array(maxFileBytes + 1), {
      filename: 'big.png',
      contentType: 'image/png',
    });
    const tooBig = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [big], {}, context()));
    assert.equal(tooBig.code, 'media_rejected');
    assert.equal(tooBig.status, 413);
    assert.equal(fx.fake.messages.length, 0);
  });
});

describe('Discord verifyCredentials', () => {
  it('returns the webhook name, avatar and channel', async () => {
    const profile = await fx.publisher.verifyCredentials(fx.account);
    assert.deepEqual(profile, {
      name: fx.fake.webhook.name,
      avatarUrl: `https://cdn.discordapp.com/avatars/${fx.fake.webhook.id}/${fx.fake.webhook.avatar}.png`,
      platformAccountId: fx.fake.webhook.channelId,
    });
  });

  it('refuses a wrong token', async () => {
    const error = await rejection(
      fx.publisher.verifyCredentials({
        ...fx.account,
        credentials: { webhookUrl: `${fx.fake.webhookUrl()}x` },
      }),
    );
    assert.equal(error.code, 'credentials_invalid');
  });
});
