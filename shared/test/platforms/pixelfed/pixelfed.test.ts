import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import {
  defaultPixelfedConfig,
  PixelfedPublisher,
  pixelfedManifest,
} from '../../../src/platforms/pixelfed/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakePixelfed, startFakePixelfed } from '../../fakes/pixelfed.ts';
import { sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const token = 'pixelfed-token';
const publisherFor = () => new PixelfedPublisher({ ...defaultPixelfedConfig, mediaPollIntervalMs: 5 });
const fx = useFixture(
  async () => ({
    fake: await startFakePixelfed({
      tokens: { [token]: { id: '77', username: 'pat', displayName: 'Pat', followersCount: 9 } },
      maxCaptionLength: 60,
      maxAlbumLength: 3,
    }),
    publisher: publisherFor(),
  }),
  {
    stop: (f: { fake: FakePixelfed }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.statuses.length = 0;
    },
  },
);

const account = (accessToken = token): PlatformAccount => ({
  id: 'px-1',
  platform: 'pixelfed',
  platformAccountId: '77',
  credentials: fx.fake.credentials(accessToken),
});
let n = 0;
const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(10_000),
  idempotencyKey: `post-${++n}:px-1`,
  logger: silentLogger,
  ...overrides,
});
const png = () => memoryMedia(new Uint8Array(samplePng()), { filename: 'p.png', contentType: 'image/png' });
const mp4 = () => memoryMedia(new Uint8Array(sampleMp4()), { filename: 'c.mp4', contentType: 'video/mp4' });
const info = (contentType = 'image/png'): MediaInfo => ({
  key: 'k',
  filename: 'f',
  contentType,
  size: 100,
  kind: contentType.startsWith('video/') ? 'video' : 'image',
  url: 'https://m.example/k',
});
const codes = (o: { errors: { code: string }[] }) => o.errors.map((e) => e.code);

describe('Pixelfed', () => {
  it('posts photos with alt text and options, without an Idempotency-Key', async () => {
    const result = await fx.publisher.publish(
      { message: 'Sunset' },
      account(),
      [{ ...png(), altText: 'Orange sky' }, png()],
      { visibility: 'unlisted', sensitive: true },
      context(),
    );
    const status = fx.fake.statuses[0]!;
    assert.equal(status.caption, 'Sunset');
    assert.equal(status.visibility, 'unlisted');
    assert.equal(status.sensitive, true);
    assert.equal(status.mediaIds.length, 2);
    assert.equal(fx.fake.media.get(status.mediaIds[0]!)!.description, 'Orange sky');
    assert.deepEqual(result, { platformPostId: status.id, url: `${fx.fake.url}/p/pat/${status.id}` });
    assert.equal(fx.fake.calls('/api/v1/statuses')[0]!.headers['idempotency-key'], undefined);
  });

  it('waits for a video to be processed before posting', async () => {
    await fx.publisher.publish({ message: 'Clip' }, account(), [mp4()], {}, context());
    assert.ok(fx.fake.calls(/^\/api\/v1\/media\//).length >= 1);
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('requires media; counts the caption as plain text (links in full) against the instance limit', async () => {
    assert.deepEqual(codes(await fx.publisher.validate({ message: 'no photo' }, account(), [], {})), [
      'media_required',
    ]);
    const url = `https://example.com/${'a'.repeat(40)}`; // 60 characters
    assert.deepEqual(codes(await fx.publisher.validate({ message: url }, account(), [info()], {})), []);
    assert.deepEqual(codes(await fx.publisher.validate({ message: `${url}!` }, account(), [info()], {})), [
      'text_too_long',
    ]);
    assert.deepEqual(
      codes(await fx.publisher.validate({ message: 'x' }, account(), [info(), info(), info(), info()], {})),
      ['too_many_media'],
    );
    assert.deepEqual(
      codes(await fx.publisher.validate({ message: 'x' }, account(), [info('video/webm')], {})),
      ['media_type_unsupported'],
    );
    assert.deepEqual(fx.fake.calls('/api/v1/instance').length, 1, 'limits come from /api/v1/instance, once');
    assert.equal(pixelfedManifest.text.count({ message: url, hasMedia: true, options: {} }).used, 60);
  });

  it('a resend finds the status an earlier send created instead of posting twice', async () => {
    const first = await fx.publisher.publish({ message: 'Once & only' }, account(), [png()], {}, context());
    const again = await publisherFor().publish(
      { message: 'Once & only' },
      account(),
      [png()],
      {},
      context({ resumed: { since: new Date(Date.now() - 500) } }),
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.statuses.length, 1);
    assert.equal(fx.fake.calls('/api/v2/media').length, 1, 'nothing uploaded for the resend');
    // A retry after a lost answer in the same process looks first too.
    const ctx = context();
    fx.fake.failWith(502, { path: /^\/api\/v1\/statuses$/ });
    await rejection(fx.publisher.publish({ message: 'Second' }, account(), [png()], {}, ctx));
    await fx.publisher.publish({ message: 'Second' }, account(), [png()], {}, ctx);
    assert.equal(fx.fake.statuses.length, 2);
  });

  it('posts the first comment as a reply without media', async () => {
    const post = await fx.publisher.publish({ message: 'Photo' }, account(), [png()], {}, context());
    await fx.publisher.publish(
      { message: 'Details below' },
      account(),
      [],
      {},
      context({ replyTo: { parent: post, root: post } }),
    );
    assert.equal(fx.fake.statuses[1]!.inReplyToId, post.platformPostId);
  });

  it("maps Pixelfed's errors: 401, Laravel 422 messages, 429 with Retry-After, 5xx", async () => {
    const unauthorized = await rejection(
      fx.publisher.publish({ message: 'x' }, account('bad'), [png()], {}, context()),
    );
    assert.equal(unauthorized.code, 'credentials_invalid');
    assert.match(unauthorized.message, /^Pixelfed refused the access token/);
    const tooLong = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(61) }, account(), [png()], {}, context()),
    );
    assert.equal(tooLong.code, 'content_rejected');
    assert.match(tooLong.message, /must not be greater than 60 characters/);
    fx.fake.rateLimit({ path: /^\/api\/v1\/statuses$/, retryAfterSeconds: 7 });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [png()], {}, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryAfterMs, 7000);
    fx.fake.failWith(503, { path: /^\/api\/v2\/media$/ });
    const down = await rejection(fx.publisher.publish({ message: 'x' }, account(), [png()], {}, context()));
    assert.equal(down.code, 'platform_unavailable');
  });

  it('verifies credentials and reads metrics like Mastodon; a deleted status is gone', async () => {
    const profile = await fx.publisher.verifyCredentials(account());
    assert.deepEqual(profile, {
      name: 'Pat',
      username: `@pat@${new URL(fx.fake.url).host}`,
      platformAccountId: '77',
      avatarUrl: `${fx.fake.url}/storage/avatars/77.jpg`,
    });
    const post = await fx.publisher.publish({ message: 'Count' }, account(), [png()], {}, context());
    Object.assign(fx.fake.statuses[0]!, { likes: 5, shares: 2 });
    const metrics = await fx.publisher.metrics(
      [{ platformPostId: post.platformPostId }],
      account(),
      context(),
    );
    assert.deepEqual(metrics.get(post.platformPostId), {
      state: 'ok',
      metrics: { likes: 5, comments: 0, reposts: 2 },
    });
    fx.fake.deleteStatus(post.platformPostId);
    const gone = await fx.publisher.metrics([{ platformPostId: post.platformPostId }], account(), context());
    assert.deepEqual(gone.get(post.platformPostId), { state: 'gone' });
    assert.deepEqual(await fx.publisher.accountMetrics(account(), context()), { followers: 9 });
  });
});
