import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeX, startFakeX, xProblem } from '../../fakes/x.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { media, publishContext, xAccount, xPublisher } from './setup.ts';

let fake: FakeX;
let publisher: ReturnType<typeof xPublisher>;

before(async () => {
  fake = await startFakeX();
  publisher = xPublisher(fake, { X_MEDIA_CHUNK_BYTES: '32' });
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.server.requests.length = 0;
});

const unique = (text: string) => `${text} ${Math.random().toString(36).slice(2)}`;

describe('X publishing', () => {
  it('posts text with the bearer token and returns the post URL', async () => {
    const account = xAccount(fake);
    const text = unique('Hello X 😀 日本 https://example.com');
    const result = await publisher.publish({ message: text }, account, [], {}, publishContext());
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.equal(post.text, text);
    assert.equal(result.url, `https://x.com/${fake.user.username}/status/${post.id}`);
    const request = fake.requestsTo('POST', /^\/2\/tweets$/)[0]!;
    assert.equal(request.headers.authorization, `Bearer ${account.credentials.accessToken}`);
    assert.deepEqual(request.body, { text });
  });

  it('uploads images in segments through initialize / append / finalize and attaches them in order', async () => {
    const files = [media.png(), media.jpeg()];
    const result = await publisher.publish(
      { message: unique('pics') },
      xAccount(fake),
      files,
      {},
      publishContext(),
    );
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.equal(post.mediaIds.length, 2);
    for (const [index, id] of post.mediaIds.entries()) {
      const stored = fake.media.get(id)!;
      assert.equal(stored.category, 'tweet_image');
      assert.equal(stored.mediaType, files[index]!.contentType);
      assert.deepEqual(
        new Uint8Array(stored.bytes!),
        new Uint8Array(await (await files[index]!.blob()).arrayBuffer()),
      );
      assert.ok(stored.segments.size > 1, 'uploaded in several segments');
    }
    const init = fake.requestsTo('POST', /initialize$/)[0]!;
    assert.deepEqual(init.body, {
      media_type: 'image/png',
      total_bytes: files[0]!.size,
      media_category: 'tweet_image',
    });
    assert.equal(fake.requestsTo('GET', /^\/2\/media\/upload$/).length, 0, 'images need no STATUS polling');
  });

  it('waits for video processing through STATUS before posting', async () => {
    const video = media.mp4(100);
    const result = await publisher.publish(
      { message: unique('clip') },
      xAccount(fake),
      [video],
      {},
      publishContext(),
    );
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    const stored = fake.media.get(post.mediaIds[0]!)!;
    assert.equal(stored.category, 'tweet_video');
    assert.equal(stored.state, 'succeeded');
    const polls = fake.requestsTo('GET', /^\/2\/media\/upload$/);
    assert.equal(polls.length, 3, 'in_progress twice, then succeeded');
    assert.equal(polls[0]!.query.get('command'), 'STATUS');
    assert.equal(polls[0]!.query.get('media_id'), stored.id);
  });

  it('uploads a GIF as tweet_gif and polls it too', async () => {
    const result = await publisher.publish(
      { message: '' },
      xAccount(fake),
      [media.gif()],
      {},
      publishContext(),
    );
    const stored = fake.media.get(fake.posts.find((p) => p.id === result.platformPostId)!.mediaIds[0]!)!;
    assert.equal(stored.category, 'tweet_gif');
    assert.ok(fake.requestsTo('GET', /^\/2\/media\/upload$/).length > 0);
  });

  it('fails permanently when X cannot process the video, without posting', async () => {
    fake.failNextProcessing('InvalidMedia', 'Unsupported video format');
    const before = fake.posts.length;
    const error = await rejection(
      withRetry(
        () =>
          publisher.publish({ message: unique('bad') }, xAccount(fake), [media.mp4()], {}, publishContext()),
        fastRetries(),
      ),
    );
    assert.equal(error.code, 'media_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /Unsupported video format/);
    assert.equal(fake.posts.length, before);
  });

  it('sends who-can-reply, reply and quote options', async () => {
    const result = await publisher.publish(
      { message: unique('reply') },
      xAccount(fake),
      [],
      {
        replySettings: 'following',
        replyToPostId: '1850000000000000001',
        quotePostId: '1850000000000000001',
      },
      publishContext(),
    );
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.equal(post.replySettings, 'following');
    assert.equal(post.replyTo, '1850000000000000001');
    assert.equal(post.quoteOf, '1850000000000000001');
    const everyone = await publisher.publish(
      { message: unique('all') },
      xAccount(fake),
      [],
      { replySettings: 'everyone' },
      publishContext(),
    );
    assert.equal(fake.posts.find((p) => p.id === everyone.platformPostId)!.replySettings, undefined);
  });

  it('reports a reply to a post that is gone as a permanent refusal', async () => {
    const error = await rejection(
      publisher.publish(
        { message: unique('r') },
        xAccount(fake),
        [],
        { replyToPostId: '42' },
        publishContext(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /deleted or not visible/);
  });

  it('treats the duplicate-content 403 as permanent, with a message that says what to do', async () => {
    const text = unique('same words');
    await publisher.publish({ message: text }, xAccount(fake), [], {}, publishContext());
    const error = await rejection(
      withRetry(
        () => publisher.publish({ message: text }, xAccount(fake), [], {}, publishContext()),
        fastRetries(),
      ),
    );
    assert.equal(error.code, 'duplicate_content');
    assert.equal(error.retryable, false);
    assert.equal(error.status, 403);
    assert.match(error.message, /duplicate/i);
    assert.match(error.message, /Change the text/);
    assert.equal(fake.requestsTo('POST', /^\/2\/tweets$/).length, 2, 'not retried');
  });

  it('waits for x-rate-limit-reset on a 429 and then posts', async () => {
    fake.exhaustRateLimit('tweets', 1);
    const started = Date.now();
    const result = await publisher.publish(
      { message: unique('limited') },
      xAccount(fake),
      [],
      {},
      publishContext(),
    );
    assert.ok(result.platformPostId);
    const attempts = fake.requestsTo('POST', /^\/2\/tweets$/);
    assert.equal(attempts.length, 2);
    assert.ok(Date.now() - started >= 500, 'waited for the reset');
  });

  it('does not sit out a reset beyond its bound: rate_limited, retryable, with the wait', async () => {
    fake.exhaustRateLimit('tweets', 900);
    try {
      const error = await rejection(
        publisher.publish({ message: unique('later') }, xAccount(fake), [], {}, publishContext()),
      );
      assert.equal(error.code, 'rate_limited');
      assert.equal(error.retryable, true);
      assert.ok(error.retryAfterMs! > 800_000);
      assert.equal(fake.requestsTo('POST', /^\/2\/tweets$/).length, 1);
    } finally {
      fake.exhaustRateLimit('tweets', -1);
    }
  });

  it('maps X error bodies to codes', async () => {
    const cases: [ReturnType<typeof xProblem> & { headers?: Record<string, string> }, string, boolean][] = [
      [xProblem(503, 'Service Unavailable', 'Service Unavailable'), 'platform_unavailable', true],
      [xProblem(500, 'Internal Server Error', 'Internal Server Error'), 'platform_unavailable', true],
      [
        {
          status: 403,
          json: {
            client_id: '1',
            detail:
              'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
            registration_url: 'https://developer.x.com/en/docs/projects/overview',
            title: 'Client Forbidden',
            required_enrollment: 'Appropriate Level of API Access',
            reason: 'client-not-enrolled',
            type: 'https://api.twitter.com/2/problems/client-forbidden',
          },
        },
        'credentials_invalid',
        false,
      ],
      [
        {
          status: 402,
          json: {
            title: 'CreditsDepleted',
            detail: 'Your enrolled account does not have any credits to fulfill this request.',
            type: 'https://api.twitter.com/2/problems/credits',
          },
        },
        'rate_limited',
        false,
      ],
    ];
    for (const [answer, code, retryable] of cases) {
      fake.server.inject({ path: /^\/2\/tweets$/, ...answer });
      const error = await rejection(
        publisher.publish({ message: unique('e') }, xAccount(fake), [], {}, publishContext()),
      );
      assert.deepEqual({ code: error.code, retryable: error.retryable }, { code, retryable }, error.message);
    }
  });

  it('retries a 503 and posts once', async () => {
    fake.server.inject({
      path: /^\/2\/tweets$/,
      ...xProblem(503, 'Service Unavailable', 'Service Unavailable'),
    });
    const text = unique('after outage');
    const result = await withRetry(
      () => publisher.publish({ message: text }, xAccount(fake), [], {}, publishContext()),
      fastRetries(),
    );
    assert.equal(fake.posts.filter((p) => p.text === text).length, 1);
    assert.ok(result.platformPostId);
  });

  it('does not upload media again when a retry follows a failed post', async () => {
    fake.server.inject({
      path: /^\/2\/tweets$/,
      ...xProblem(503, 'Service Unavailable', 'Service Unavailable'),
    });
    const context = publishContext();
    await withRetry(
      () => publisher.publish({ message: unique('m') }, xAccount(fake), [media.png()], {}, context),
      fastRetries(),
    );
    assert.equal(fake.requestsTo('POST', /initialize$/).length, 1);
  });

  it('a retry after a lost answer finds the post X already created instead of failing on the duplicate', async () => {
    fake.loseNextPostAnswer();
    const text = unique('lost answer https://example.com/a?b=1');
    const context = publishContext();
    const before = fake.posts.length;
    const result = await withRetry(
      () => publisher.publish({ message: text }, xAccount(fake), [], {}, context),
      fastRetries(),
    );
    assert.equal(fake.posts.length, before + 1, 'posted once');
    assert.equal(result.platformPostId, fake.posts.at(-1)!.id);
    assert.equal(fake.requestsTo('GET', /^\/2\/users\/\d+\/tweets$/).length, 1);
  });

  it('verifies credentials through users/me', async () => {
    const profile = await publisher.verifyCredentials(xAccount(fake));
    assert.deepEqual(profile, {
      name: fake.user.name,
      username: fake.user.username,
      avatarUrl: fake.user.profileImageUrl,
      platformAccountId: fake.user.id,
    });
  });
});
