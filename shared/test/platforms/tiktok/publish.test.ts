import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createTikTokPublisher } from '../../../src/platforms/tiktok/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, tiktokAccount, tiktokFixture, tiktokTestConfig } from './setup.ts';

const fx = tiktokFixture();
const MB = 1024 * 1024;

describe('TikTok publishing', () => {
  it('offers the privacy levels creator_info allows, labelled', async () => {
    const choices = await fx.publisher.optionChoices!(tiktokAccount(fx.fake), 'privacyLevel', {}, context());
    assert.deepEqual(choices, [
      { value: 'PUBLIC_TO_EVERYONE', label: 'Everyone' },
      { value: 'MUTUAL_FOLLOW_FRIENDS', label: 'Friends (followers you follow back)' },
      { value: 'SELF_ONLY', label: 'Only me' },
    ]);
    assert.equal(fx.fake.calls('/v2/post/publish/creator_info/query/').length, 1);
    assert.deepEqual(await fx.publisher.optionChoices!(tiktokAccount(fx.fake), 'title', {}, context()), []);
  });

  it('uploads a small video whole by FILE_UPLOAD, asks creator_info first, and polls until PUBLISH_COMPLETE', async () => {
    const video = fx.mp4();
    const result = await fx.publisher.publish(
      { message: 'My first video #postwave' },
      tiktokAccount(fx.fake),
      [video],
      { privacyLevel: 'SELF_ONLY', disableDuet: true },
      context(),
    );
    const paths = fx.fake.requests.map(
      (r) => `${r.method} ${r.path.replace(/\/upload\/video\/.*/, '/upload')}`,
    );
    assert.deepEqual(paths.slice(0, 3), [
      'POST /v2/post/publish/creator_info/query/',
      'POST /v2/post/publish/video/init/',
      'PUT /upload',
    ]);
    const post = fx.fake.posts.at(-1)!;
    assert.equal(result.platformPostId, post.publishId, 'a private post has no public id: the publish id');
    assert.equal(post.source, 'FILE_UPLOAD');
    assert.deepEqual(post.postInfo, {
      title: 'My first video #postwave',
      privacy_level: 'SELF_ONLY',
      disable_comment: false,
      disable_duet: true,
      disable_stitch: false,
    });
    assert.deepEqual(
      post.chunks.map((c) => c.range),
      [`0-${video.size - 1}/${video.size}`],
    );
    assert.ok(fx.fake.calls('/v2/post/publish/status/fetch/').length >= 2, 'polled while processing');
    assert.equal(post.status, 'PUBLISH_COMPLETE');
  });

  it('cuts a bigger video into chunks with Content-Range, the last one taking the remainder', async () => {
    const bytes = patternBytes(11 * MB + 123);
    const video = memoryMedia(bytes, { filename: 'big.mp4', contentType: 'video/mp4' });
    const publisher = createTikTokPublisher({ ...fx.config, chunkBytes: 5 * MB });
    fx.fake.audited = true;
    const result = await publisher.publish(
      { message: 'Big one' },
      tiktokAccount(fx.fake),
      [video],
      { privacyLevel: 'PUBLIC_TO_EVERYONE' },
      context(),
    );
    const post = fx.fake.posts.at(-1)!;
    assert.deepEqual([post.chunkSize, post.totalChunkCount], [5 * MB, 2]);
    assert.deepEqual(
      post.chunks.map((c) => c.range),
      [`0-${5 * MB - 1}/${bytes.length}`, `${5 * MB}-${bytes.length - 1}/${bytes.length}`],
    );
    assert.ok(Buffer.concat(post.received).equals(Buffer.from(bytes)), 'the bytes arrive in order');
    assert.equal(result.platformPostId, post.postId, 'a public post reports its post id');
    assert.equal(result.url, `https://www.tiktok.com/@fakecreator/video/${post.postId}`);
  });

  it('lets TikTok pull the video from our URL with TIKTOK_VIDEO_SOURCE=PULL_FROM_URL', async () => {
    const publisher = createTikTokPublisher({ ...fx.config, videoSource: 'PULL_FROM_URL' });
    const video = fx.mp4('pulled.mp4');
    await publisher.publish(
      { message: 'Pulled' },
      tiktokAccount(fx.fake),
      [video],
      { privacyLevel: 'SELF_ONLY' },
      context(),
    );
    const post = fx.fake.posts.at(-1)!;
    assert.equal(post.source, 'PULL_FROM_URL');
    assert.deepEqual(post.urls, [video.url]);
    assert.equal(post.downloaded[0]?.bytes, video.size);
    assert.equal(fx.fake.requests.filter((r) => r.method === 'PUT').length, 0);
  });

  it('posts photos by URL with the title option and the message as description', async () => {
    const photos = [fx.jpeg('1.jpg'), fx.jpeg('2.jpg'), fx.jpeg('3.jpg')];
    await fx.publisher.publish(
      { message: 'Three photos' },
      tiktokAccount(fx.fake),
      photos,
      { privacyLevel: 'SELF_ONLY', title: 'Holiday', disableComment: true },
      context(),
    );
    const init = fx.fake.calls('/v2/post/publish/content/init/').at(-1)!;
    assert.deepEqual(init.body, {
      post_info: {
        title: 'Holiday',
        description: 'Three photos',
        privacy_level: 'SELF_ONLY',
        disable_comment: true,
      },
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: photos.map((p) => p.url) },
      post_mode: 'DIRECT_POST',
      media_type: 'PHOTO',
    });
    const post = fx.fake.posts.at(-1)!;
    assert.equal(post.downloaded.length, 3);
    assert.equal(post.status, 'PUBLISH_COMPLETE');
  });

  it('keeps interactions off that the creator turned off', async () => {
    fx.fake.creator.commentDisabled = true;
    try {
      await fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      );
      assert.equal(fx.fake.posts.at(-1)!.postInfo.disable_comment, true);
    } finally {
      fx.fake.creator.commentDisabled = false;
    }
  });

  it('refuses a privacy level the creator is not offered before posting, and explains the unaudited refusal', async () => {
    fx.fake.creator.privacyLevelOptions = ['SELF_ONLY'];
    try {
      const error = await rejection(
        fx.publisher.publish(
          { message: 'x' },
          tiktokAccount(fx.fake),
          [fx.mp4()],
          { privacyLevel: 'PUBLIC_TO_EVERYONE' },
          context(),
        ),
      );
      assert.equal(error.code, 'content_rejected');
      assert.equal(error.retryable, false);
      assert.equal(fx.fake.calls('/v2/post/publish/video/init/').length, 0);
    } finally {
      fx.fake.creator.privacyLevelOptions = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY'];
    }
    const unaudited = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'PUBLIC_TO_EVERYONE' },
        context(),
      ),
    );
    assert.equal(unaudited.code, 'content_rejected');
    assert.equal(unaudited.status, 403);
    assert.match(unaudited.message, /SELF_ONLY/);
  });

  it('reports a failed publish by its fail_reason', async () => {
    fx.fake.nextFailReason = 'duration_check_failed';
    const error = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      ),
    );
    assert.deepEqual([error.code, error.retryable], ['media_rejected', false]);
    assert.match(error.message, /duration_check_failed/);
    const missing = fx.host.file(new Uint8Array(4), 'x.jpg', 'image/jpeg');
    const pulled = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [{ ...missing, url: `${missing.url}-gone` }],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      ),
    );
    assert.equal(pulled.code, 'media_rejected');
    assert.match(pulled.message, /photo_pull_failed/);
  });

  it('maps rate limits, outages and refused URLs', async () => {
    fx.fake.server.inject({
      path: /creator_info/,
      status: 429,
      headers: { 'retry-after': '30' },
      json: {
        data: {},
        error: { code: 'rate_limit_exceeded', message: 'API rate limit exceeded', log_id: 'x' },
      },
    });
    const limited = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      ),
    );
    assert.deepEqual([limited.code, limited.retryable, limited.retryAfterMs], ['rate_limited', true, 30_000]);
    fx.fake.server.inject({
      path: /video\/init/,
      status: 500,
      json: { data: {}, error: { code: 'internal_error', message: 'Something went wrong', log_id: 'x' } },
    });
    const down = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      ),
    );
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    fx.fake.server.inject({
      path: /creator_info/,
      status: 403,
      json: { data: {}, error: { code: 'spam_risk_too_many_posts', message: 'daily limit', log_id: 'x' } },
    });
    const capped = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context(),
      ),
    );
    assert.deepEqual([capped.code, capped.retryable], ['rate_limited', false]);
    fx.fake.verifiedUrlPrefixes = ['https://media.verified.example/'];
    try {
      const unverified = await rejection(
        fx.publisher.publish(
          { message: 'x' },
          tiktokAccount(fx.fake),
          [fx.jpeg()],
          { privacyLevel: 'SELF_ONLY' },
          context(),
        ),
      );
      assert.deepEqual([unverified.code, unverified.retryable], ['media_rejected', false]);
      assert.match(unverified.message, /verif/);
    } finally {
      fx.fake.verifiedUrlPrefixes = undefined;
    }
  });

  it('follows the accepted publish on a resend instead of posting twice', async () => {
    const key = `post-resend:tt1`;
    fx.fake.server.inject({ path: /status\/fetch/, status: 503, text: 'upstream gone', times: 1 });
    const first = await rejection(
      fx.publisher.publish(
        { message: 'Once' },
        tiktokAccount(fx.fake),
        [fx.mp4()],
        { privacyLevel: 'SELF_ONLY' },
        context({ idempotencyKey: key }),
      ),
    );
    assert.equal(first.retryable, true);
    const again = await fx.publisher.publish(
      { message: 'Once' },
      tiktokAccount(fx.fake),
      [fx.mp4()],
      { privacyLevel: 'SELF_ONLY' },
      context({ idempotencyKey: key }),
    );
    assert.equal(fx.fake.calls('/v2/post/publish/video/init/').length, 1, 'one post');
    assert.equal(again.platformPostId, fx.fake.posts.at(-1)!.publishId);
  });
});

describe('TikTok tokens', () => {
  it('renews an expiring access token first and hands back the rotated refresh token', async () => {
    const credentials = fx.fake.credentials({ accessTtlSeconds: 30 });
    const stored: Record<string, unknown>[] = [];
    await fx.publisher.publish(
      { message: 'x' },
      tiktokAccount(fx.fake, credentials),
      [fx.mp4()],
      { privacyLevel: 'SELF_ONLY' },
      context({ onCredentialsRefreshed: (fresh) => void stored.push(fresh) }),
    );
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.refreshToken, credentials.refreshToken, 'rotated');
    assert.notEqual(stored[0]!.accessToken, credentials.accessToken);
    assert.ok(Date.parse(String(stored[0]!.expiresAt)) > Date.now() + 23 * 3_600_000, '24 hours');
    assert.ok(Date.parse(String(stored[0]!.refreshExpiresAt)) > Date.now() + 364 * 86_400_000, '365 days');
    assert.equal(fx.fake.calls('/v2/oauth/token/').length, 1);
  });

  it('renews once when TikTok refuses the token, then posts', async () => {
    const credentials = fx.fake.credentials();
    fx.fake.expireAccessToken(credentials.accessToken!);
    const stored: Record<string, unknown>[] = [];
    await fx.publisher.publish(
      { message: 'x' },
      tiktokAccount(fx.fake, credentials),
      [fx.mp4()],
      { privacyLevel: 'SELF_ONLY' },
      context({ onCredentialsRefreshed: (fresh) => void stored.push(fresh) }),
    );
    assert.equal(stored.length, 1);
  });

  it('needs a reconnect once the creator revoked the app', async () => {
    const account = tiktokAccount(fx.fake);
    const fake = fx.fake;
    fake.revokeAll();
    const error = await rejection(
      fx.publisher.publish({ message: 'x' }, account, [fx.mp4()], { privacyLevel: 'SELF_ONLY' }, context()),
    );
    assert.equal(error.code, 'needs_reconnect');
    const verify = await rejection(
      fx.publisher.verifyCredentials(account, { signal: AbortSignal.timeout(5000) }),
    );
    assert.equal(verify.code, 'needs_reconnect');
  });

  it('verifies credentials through the profile', async () => {
    const profile = await createTikTokPublisher(tiktokTestConfig(fx.fake)).verifyCredentials(
      tiktokAccount(fx.fake),
    );
    assert.deepEqual(profile, {
      name: 'Fake Creator',
      avatarUrl: fx.fake.creator.avatarUrl,
      platformAccountId: fx.fake.creator.openId,
    });
  });
});
