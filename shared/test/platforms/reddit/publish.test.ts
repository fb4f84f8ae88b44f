import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redditConfigFromEnv } from '../../../src/platforms/reddit/config.ts';
import { createRedditPublisher } from '../../../src/platforms/reddit/index.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, redditFixture, subredditAccount } from './setup.ts';

const fx = redditFixture({ REDDIT_RATE_LIMIT_MAX_WAIT_MS: '3000' });

const png = () => memoryMedia(new Uint8Array(samplePng()), { filename: 'cat.png', contentType: 'image/png' });
const mp4 = () => memoryMedia(patternBytes(4096), { filename: 'clip.mp4', contentType: 'video/mp4' });

describe('Reddit publishing', () => {
  it('submits a text post with the title, flags, flair and the User-Agent, and returns t3_ id and link', async () => {
    const account = subredditAccount(fx.fake, 'flairland');
    const result = await fx.publisher.publish(
      { message: 'Body with <b> & co' },
      account,
      [],
      { title: 'Hello Reddit', flairId: 'f-free-0002', flairText: 'Mine', nsfw: true },
      context(),
    );
    const [post] = fx.fake.posts;
    assert.equal(post?.kind, 'self');
    assert.equal(post?.text, 'Body with <b> & co');
    assert.equal(post?.title, 'Hello Reddit');
    assert.equal(post?.flairId, 'f-free-0002');
    assert.equal(post?.flairText, 'Mine');
    assert.equal(post?.nsfw, true);
    assert.equal(post?.spoiler, false);
    assert.equal(result.platformPostId, `t3_${post!.id}`);
    assert.match(result.url!, new RegExp(`/r/flairland/comments/${post!.id}/`));
    const submit = fx.fake.requestsTo('POST', /^\/api\/submit$/)[0]!;
    assert.equal(submit.headers['user-agent'], 'test:postwave:1.0 (by /u/postwave_tester)');
    assert.match(String(submit.headers.authorization), /^Bearer /);
    assert.equal((submit.body as Record<string, string>).api_type, 'json');
  });

  it('submits a message that is only a URL as a link post', async () => {
    await fx.publisher.publish(
      { message: 'https://example.com/news' },
      fx.account,
      [],
      { title: 'Link' },
      context(),
    );
    assert.equal(fx.fake.posts[0]?.kind, 'link');
    assert.equal(fx.fake.posts[0]?.url, 'https://example.com/news');
  });

  it('uploads an image through the media asset lease and finds the post Reddit did not name', async () => {
    const result = await fx.publisher.publish(
      { message: '' },
      fx.account,
      [png()],
      { title: 'A cat' },
      context(),
    );
    const [post] = fx.fake.posts;
    assert.equal(post?.kind, 'image');
    const asset = [...fx.fake.assets.values()][0]!;
    assert.equal(asset.mimetype, 'image/png');
    assert.equal(asset.filepath, 'cat.png');
    assert.deepEqual(asset.bytes, samplePng());
    assert.equal(post?.url, asset.url);
    assert.equal(result.platformPostId, post?.name, 'found among the subreddit’s new posts');
    assert.match(result.url!, /\/r\/postwave\/comments\//);
    const upload = fx.fake.requestsTo('POST', /^\/reddit-uploaded-media$/)[0]!;
    assert.equal(upload.headers.authorization, undefined, 'no Reddit token goes to the bucket');
  });

  it('takes a protocol-relative bucket and a 204 from it; a post it cannot find still counts as posted', async () => {
    fx.fake.protocolRelativeAction = true;
    fx.fake.bucketAnswers204 = true;
    fx.fake.server.inject({
      path: /^\/r\/postwave\/new$/,
      status: 404,
      json: { message: 'Not Found', error: 404 },
      times: 3,
    });
    try {
      const result = await fx.publisher.publish(
        { message: '' },
        fx.account,
        [png()],
        { title: 'Relative' },
        context(),
      );
      const asset = [...fx.fake.assets.values()][0]!;
      assert.equal(fx.fake.posts[0]?.url, asset.url);
      assert.equal(result.platformPostId, `asset:${asset.id}`);
      assert.match(result.url!, /\/user\/postwave_tester\/submitted\//);
    } finally {
      fx.fake.protocolRelativeAction = false;
      fx.fake.bucketAnswers204 = false;
    }
  });

  it('uploads a video with a poster image', async () => {
    fx.fake.mediaAnswersWithWebsocket = false;
    try {
      const result = await fx.publisher.publish(
        { message: '' },
        fx.account,
        [mp4()],
        { title: 'A clip' },
        context(),
      );
      const [post] = fx.fake.posts;
      assert.equal(post?.kind, 'video');
      assert.ok(post?.videoPosterUrl);
      assert.equal(fx.fake.assets.size, 2);
      assert.equal(result.platformPostId, post?.name);
    } finally {
      fx.fake.mediaAnswersWithWebsocket = true;
    }
  });

  it("maps Reddit's json.errors: rules → content_rejected, subreddit → target_unreachable, RATELIMIT → rate_limited", async () => {
    fx.fake.submitErrors.push([
      'SUBMIT_VALIDATION_FLAIR_REQUIRED',
      'Your post must contain post flair.',
      'flair',
    ]);
    const flair = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { title: 'T' }, context()),
    );
    assert.equal(flair.code, 'content_rejected');
    assert.equal(flair.retryable, false);
    assert.match(flair.message, /SUBMIT_VALIDATION_FLAIR_REQUIRED/);

    const missing = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        subredditAccount(fx.fake, 'doesnotexist'),
        [],
        { title: 'T' },
        context(),
      ),
    );
    assert.equal(missing.code, 'target_unreachable');

    fx.fake.submitErrors.push([
      'RATELIMIT',
      "Looks like you've been doing that a lot. Take a break for 5 minutes before trying again.",
      'ratelimit',
    ]);
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { title: 'T' }, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryable, true);
    assert.equal(limited.retryAfterMs, 300_000);
  });

  it('maps HTTP failures: private subreddit, 5xx, 429 with the window reset', async () => {
    const lookup = await rejection(
      fx.publisher
        .verifyCredentials(subredditAccount(fx.fake, 'secretclub'), context())
        .then(() =>
          fx.publisher.optionChoices!(subredditAccount(fx.fake, 'secretclub'), 'flairId', {}, context()),
        ),
    );
    assert.equal(lookup.code, 'target_unreachable');
    fx.fake.server.inject({ path: /^\/api\/submit$/, status: 502, text: '<html>Bad Gateway</html>' });
    const down = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { title: 'T' }, context()),
    );
    assert.equal(down.code, 'platform_unavailable');
    assert.equal(down.retryable, true);
    fx.fake.server.inject({
      path: /^\/api\/submit$/,
      status: 429,
      headers: { 'x-ratelimit-remaining': '0.0', 'x-ratelimit-reset': '42', 'x-ratelimit-used': '100' },
      json: { message: 'Too Many Requests', error: 429 },
    });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { title: 'T' }, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.ok(
      limited.retryAfterMs! > 40_000 && limited.retryAfterMs! <= 42_000,
      String(limited.retryAfterMs),
    );
  });

  it('honours X-Ratelimit-Remaining: waits for a short reset, fails rate_limited for a long one', async () => {
    fx.fake.setRateWindow(1, 1);
    await fx.publisher.verifyCredentials(fx.account, context());
    // The window is spent (remaining 0, reset in about a second): the next call waits for the reset.
    await fx.publisher.publish({ message: 'after the wait' }, fx.account, [], { title: 'T' }, context());
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(
      fx.fake.server.requests.filter((r) => r.path === '/api/submit').length,
      1,
      'no call was sent into a spent window (the fake would answer 429)',
    );

    fx.fake.setRateWindow(1, 120);
    await fx.publisher.verifyCredentials(fx.account, context());
    const before = fx.fake.server.requests.length;
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, fx.account, [], { title: 'T' }, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.ok(limited.retryAfterMs! > 100_000);
    assert.equal(fx.fake.server.requests.length, before, 'nothing sent while the window is spent');
  });

  it('refreshes an expired token with the permanent refresh token and hands it over', async () => {
    const stored: Record<string, unknown>[] = [];
    const account = subredditAccount(fx.fake, 'postwave', fx.fake.credentials({ expired: true }));
    await fx.publisher.publish(
      { message: 'x' },
      account,
      [],
      { title: 'T' },
      context({ onCredentialsRefreshed: (c) => void stored.push(c) }),
    );
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.accessToken, account.credentials.accessToken);
    assert.equal(stored[0]!.refreshToken, account.credentials.refreshToken);
    const refresh = fx.fake.requestsTo('POST', /^\/api\/v1\/access_token$/).at(-1)!;
    assert.match(String(refresh.headers.authorization), /^Basic /);
    assert.equal(refresh.headers['user-agent'], 'test:postwave:1.0 (by /u/postwave_tester)');

    // An entry naming its own app refreshes with that app's credentials.
    const ownApp = createRedditPublisher(
      redditConfigFromEnv({ ...fx.fake.env(), REDDIT_CLIENT_ID: 'other', REDDIT_CLIENT_SECRET: 'x' }),
    );
    await ownApp.publish(
      { message: 'own app' },
      subredditAccount(fx.fake, 'postwave', {
        ...fx.fake.credentials({ expired: true }),
        clientId: fx.fake.clientId,
        clientSecret: fx.fake.clientSecret,
      }),
      [],
      { title: 'T' },
      context(),
    );

    // A token refused before its stated expiry is refreshed once, too.
    const early = subredditAccount(fx.fake);
    fx.fake.expireAccessTokens();
    await fx.publisher.publish({ message: 'y' }, early, [], { title: 'T' }, context());
    assert.equal(fx.fake.posts.length, 3);
  });

  it('a revoked grant is needs_reconnect; missing scope too', async () => {
    const account = subredditAccount(fx.fake);
    fx.fake.revokeAll();
    const revoked = await rejection(
      fx.publisher.publish({ message: 'x' }, account, [], { title: 'T' }, context()),
    );
    assert.equal(revoked.code, 'needs_reconnect');
    const narrow = subredditAccount(
      fx.fake,
      'postwave',
      fx.fake.credentials({ scopes: ['identity', 'read'] }),
    );
    const scope = await rejection(
      fx.publisher.publish({ message: 'x' }, narrow, [], { title: 'T' }, context()),
    );
    assert.equal(scope.code, 'needs_reconnect');
    assert.match(scope.message, /permission/);
  });

  it('a resend after a lost answer finds the earlier post instead of posting twice', async () => {
    const since = new Date();
    const first = await fx.publisher.publish(
      { message: 'once' },
      fx.account,
      [],
      { title: 'Only once' },
      context(),
    );
    const again = await fx.publisher.publish(
      { message: 'once' },
      fx.account,
      [],
      { title: 'Only once' },
      context({ resumed: { since } }),
    );
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(again.platformPostId, first.platformPostId);
    const fresh = await fx.publisher.publish(
      { message: 'new' },
      fx.account,
      [],
      { title: 'Not posted before' },
      context({ resumed: { since } }),
    );
    assert.equal(fx.fake.posts.length, 2);
    assert.notEqual(fresh.platformPostId, first.platformPostId);
  });

  it('verifies credentials with /api/v1/me', async () => {
    const profile = await fx.publisher.verifyCredentials(fx.account, context());
    assert.equal(profile.username, 'postwave_tester');
    assert.equal(profile.name, 'r/postwave');
    assert.equal(profile.avatarUrl, 'https://styles.redditmedia.example/avatar.png');
  });
});
