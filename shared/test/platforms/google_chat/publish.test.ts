import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSafeFetch } from '../../../src/http/safe-fetch.ts';
import { createGoogleChatPublisher } from '../../../src/platforms/google_chat/index.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { startFakeGoogleChat } from '../../fakes/google-chat.ts';
import { useFixture } from '../../support/fixture.ts';
import { fastRetries, rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeGoogleChat();
    const account: PlatformAccount = {
      id: 'g1',
      platform: 'google_chat',
      platformAccountId: fake.webhook.space,
      credentials: { webhookUrl: fake.webhookUrl() },
    };
    return { fake, account, publisher: createGoogleChatPublisher() };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.messages.length = 0;
      f.fake.server.requests.length = 0;
    },
  },
);
const context = (key?: string) => testPublishContext('g1', key ? { idempotencyKey: key } : {}, 10_000);

describe('Google Chat publishing', () => {
  it('posts the text as written, with a requestId from the idempotency key', async () => {
    const result = await fx.publisher.publish(
      { message: '*Bold* <https://x.test|x> & more' },
      fx.account,
      [],
      {},
      context('p1:g1'),
    );
    const [message] = fx.fake.messages;
    assert.equal(message?.text, '*Bold* <https://x.test|x> & more');
    assert.equal(result.platformPostId, message?.name);
    assert.equal(result.replyRef, message?.thread);
    const post = fx.fake.posts()[0]!;
    assert.match(
      post.query.get('requestId') ?? '',
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(post.query.get('messageReplyOption'), null);
    assert.equal(post.query.get('key'), fx.fake.webhook.key);
  });

  it('a resend with the same key returns the message Google already created', async () => {
    const first = await fx.publisher.publish({ message: 'once' }, fx.account, [], {}, context('same:g1'));
    const again = await fx.publisher.publish({ message: 'once' }, fx.account, [], {}, context('same:g1'));
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.messages.length, 1);
    assert.equal(fx.publisher.dedupe, 'idempotent-resend');
  });

  it('shows images as a card of image widgets by public URL', async () => {
    const media = [
      { ...memoryMedia(patternBytes(10, 1), { filename: 'a.png', contentType: 'image/png' }), altText: 'A' },
      memoryMedia(patternBytes(10, 2), { filename: 'b.gif', contentType: 'image/gif' }),
    ];
    await fx.publisher.publish({ message: '' }, fx.account, media, {}, context());
    const [message] = fx.fake.messages;
    assert.equal(message?.text, undefined);
    assert.deepEqual(message?.cardsV2, [
      {
        cardId: 'postwave-media',
        card: {
          sections: [
            {
              widgets: [
                { image: { imageUrl: media[0]!.url, altText: 'A' } },
                { image: { imageUrl: media[1]!.url } },
              ],
            },
          ],
        },
      },
    ]);
  });

  it('puts posts with the same threadKey in one thread, and thread parts in the first message’s thread', async () => {
    const one = await fx.publisher.publish(
      { message: 'one' },
      fx.account,
      [],
      { threadKey: 'releases' },
      context(),
    );
    await fx.publisher.publish({ message: 'two' }, fx.account, [], { threadKey: 'releases' }, context());
    const [a, b] = fx.fake.messages;
    assert.equal(a?.thread, b?.thread);
    const post = fx.fake.posts()[0]!;
    assert.equal(post.query.get('messageReplyOption'), 'REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD');
    assert.deepEqual((post.body as { thread: unknown }).thread, { threadKey: 'releases' });

    const root = await fx.publisher.publish({ message: 'root' }, fx.account, [], {}, context());
    const part = await fx.publisher.publish(
      { message: 'part' },
      fx.account,
      [],
      {},
      { ...context(), replyTo: { parent: root, root } },
    );
    await fx.publisher.publish(
      { message: 'comment' },
      fx.account,
      [],
      {},
      { ...context(), replyTo: { parent: part, root } },
    );
    const [, , r, p, c] = fx.fake.messages;
    assert.notEqual(r?.thread, a?.thread);
    assert.equal(p?.thread, r?.thread);
    assert.equal(c?.thread, r?.thread);
    assert.equal(one.replyRef, a?.thread);
  });

  it('classifies refusals without repeating the webhook URL', async () => {
    const badToken = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        {
          ...fx.account,
          credentials: { webhookUrl: fx.fake.webhookUrl().replace(/token=[^&]+/, 'token=wrong') },
        },
        [],
        {},
        context(),
      ),
    );
    assert.equal(badToken.code, 'credentials_invalid');
    const badKey = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        {
          ...fx.account,
          credentials: { webhookUrl: fx.fake.webhookUrl().replace(/key=[^&]+/, 'key=AIzaWrong') },
        },
        [],
        {},
        context(),
      ),
    );
    assert.equal(badKey.code, 'credentials_invalid');
    assert.match(badKey.message, /API key not valid/);
    const tooBig = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(32_001) }, fx.account, [], {}, context()),
    );
    assert.equal(tooBig.code, 'content_rejected');
    fx.fake.server.inject({
      status: 503,
      json: { error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } },
    });
    const down = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(down.code, 'platform_unavailable');
    for (const error of [badToken, badKey, tooBig, down]) {
      assert.ok(!error.message.includes(fx.fake.webhook.token), error.message);
      assert.doesNotMatch(error.message, /key=|token=/);
    }
  });

  it('retries RESOURCE_EXHAUSTED with backoff; the retry posts once', async () => {
    fx.fake.rateLimitNext();
    const limited = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryable, true);
    fx.fake.rateLimitNext();
    await withRetry(
      () => fx.publisher.publish({ message: 'after' }, fx.account, [], {}, context()),
      fastRetries(),
    );
    assert.equal(fx.fake.messages.length, 1);
  });

  it('declares one message a second per space', () => {
    assert.deepEqual(fx.publisher.rateLimits?.(fx.account), [
      { scope: 'webhook', key: fx.fake.webhook.space, limit: 1, windowMs: 1000 },
    ]);
  });
});

describe('Google Chat credentials check', () => {
  it('derives the space from the URL without posting, and applies the address policy', async () => {
    const profile = await fx.publisher.verifyCredentials(fx.account);
    assert.deepEqual(profile, {
      name: `Space ${fx.fake.webhook.space}`,
      platformAccountId: fx.fake.webhook.space,
    });
    assert.equal(fx.fake.server.requests.length, 0);
    const refused = await rejection(
      fx.publisher.verifyCredentials(fx.account, {
        signal: AbortSignal.timeout(5000),
        accountHostFetch: createSafeFetch(),
      }),
    );
    assert.equal(refused.code, 'target_unreachable');
    const malformed = await rejection(
      fx.publisher.verifyCredentials({
        ...fx.account,
        credentials: { webhookUrl: 'https://chat.googleapis.com/v1/spaces/X/messages' },
      }),
    );
    assert.equal(malformed.code, 'credentials_invalid');
  });
});
