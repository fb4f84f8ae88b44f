import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { instagramModule } from '../../../src/platforms/instagram/index.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';
import { context, instagramFixture } from './setup.ts';

describe('Instagram', () => {
  const fx = instagramFixture();
  const jpeg = () => fx.host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg');
  const mp4 = () => fx.host.file(new Uint8Array(sampleMp4()), 'clip.mp4', 'video/mp4');

  describe('validation', () => {
    const codes = async (message: string, media: ReturnType<typeof memoryMedia>[]) =>
      (await fx.publisher.validate({ message }, fx.account, media, {})).errors.map((e) => e.code);
    const file = (contentType: string, size?: number) => {
      const media = memoryMedia(new Uint8Array(contentType === 'image/jpeg' ? sampleJpeg() : samplePng()), {
        filename: 'f',
        contentType,
      });
      return size === undefined ? media : { ...media, size };
    };

    it('requires media, and allows 2200 characters but not 2201', async () => {
      assert.deepEqual(await codes('hello', []), ['media_required']);
      assert.deepEqual(await codes('a'.repeat(2200), [file('image/jpeg')]), []);
      assert.deepEqual(await codes('a'.repeat(2201), [file('image/jpeg')]), ['text_too_long']);
    });

    it('takes JPEG images up to 8 MB, carousels up to 10, 30 hashtags, 20 mentions', async () => {
      assert.deepEqual(await codes('x', [file('image/png')]), ['media_type_unsupported']);
      assert.deepEqual(await codes('x', [file('image/jpeg', 9 * 1024 * 1024)]), ['media_too_large']);
      assert.deepEqual(await codes('x', Array(10).fill(file('image/jpeg'))), []);
      assert.deepEqual(await codes('x', Array(11).fill(file('image/jpeg'))), ['too_many_media']);
      const tags = Array.from({ length: 31 }, (_, i) => `#t${i}`).join(' ');
      assert.deepEqual(await codes(tags, [file('image/jpeg')]), ['too_many_hashtags']);
      const mentions = Array.from({ length: 21 }, (_, i) => `@u${i}`).join(' ');
      assert.deepEqual(await codes(mentions, [file('image/jpeg')]), ['too_many_mentions']);
    });

    it('warns media_url_not_public for loopback media (the post is still valid)', async () => {
      const outcome = await fx.publisher.validate({ message: 'x' }, fx.account, [jpeg()], {});
      assert.deepEqual(outcome.errors, []);
      assert.deepEqual(
        outcome.warnings.map((w) => w.code),
        ['media_url_not_public'],
      );
    });

    it('counts as the manifest does and says media is required', () => {
      const manifest = instagramModule.manifest!;
      assert.equal(manifest.media.required, true);
      assert.equal(manifest.text.count({ message: 'héllo 👋', hasMedia: true, options: {} }).used, 7);
    });
  });

  describe('publishing', () => {
    it('publishes one image: quota checked first, container, media_publish, permalink', async () => {
      const image = jpeg();
      const result = await fx.publisher.publish(
        { message: 'Fresh bread' },
        fx.account,
        [image],
        {},
        context(),
      );
      const published = fx.fake.media.find((m) => m.id === result.platformPostId)!;
      assert.equal(published.caption, 'Fresh bread');
      assert.equal(result.url, published.permalink);
      const container = fx.fake.containers.get(published.containerId)!;
      assert.equal(container.url, image.url);
      assert.deepEqual(container.media?.bytes, sampleJpeg());
      const paths = fx.fake.server.requests
        .filter((r) => !r.path.startsWith('/oauth'))
        .map((r) => `${r.method} ${r.path.replace(/\d{10,}/g, ':id')}`);
      assert.equal(paths[0], 'GET /v23.0/:id/content_publishing_limit');
      assert.ok(paths.includes('POST /v23.0/:id/media_publish'));
    });

    it('publishes a video as a reel after polling status_code until FINISHED', async () => {
      const result = await fx.publisher.publish(
        { message: 'Reel' },
        fx.account,
        [mp4()],
        { shareToFeed: false, thumbOffset: 1500 },
        context(),
      );
      const published = fx.fake.media.find((m) => m.id === result.platformPostId)!;
      const container = fx.fake.containers.get(published.containerId)!;
      assert.equal(container.mediaType, 'REELS');
      assert.equal(container.shareToFeed, false);
      assert.equal(container.thumbOffset, 1500);
      const polls = fx.fake.requestsTo('GET', new RegExp(`/${container.id}$`));
      assert.ok(polls.length >= 3, `polled ${polls.length} times`);
    });

    it('publishes a carousel of images and a video', async () => {
      const result = await fx.publisher.publish(
        { message: 'Carousel' },
        fx.account,
        [jpeg(), mp4(), jpeg()],
        {},
        context(),
      );
      const published = fx.fake.media.find((m) => m.id === result.platformPostId)!;
      assert.equal(published.mediaType, 'CAROUSEL');
      assert.deepEqual(
        published.children.map((c) => c.mediaType),
        ['IMAGE', 'VIDEO', 'IMAGE'],
      );
      assert.equal(published.caption, 'Carousel');
    });

    it('refuses with a clear error when the 24-hour quota is spent, creating nothing', async () => {
      fx.fake.quotaUsage = 100;
      const before = fx.fake.containers.size;
      const error = await rejection(
        fx.publisher.publish({ message: 'Too many' }, fx.account, [jpeg()], {}, context()),
      );
      assert.deepEqual([error.code, error.retryable], ['rate_limited', false]);
      assert.match(error.message, /100 API posts allowed in 24 hours/);
      assert.equal(fx.fake.containers.size, before);
    });

    it('reports processing ERROR as media_rejected and EXPIRED as retryable', async () => {
      fx.fake.nextVideoOutcome = 'ERROR';
      const failed = await rejection(
        fx.publisher.publish({ message: 'bad' }, fx.account, [mp4()], {}, context()),
      );
      assert.deepEqual([failed.code, failed.retryable], ['media_rejected', false]);
      assert.match(failed.message, /Unsupported video format/);
      fx.fake.nextVideoOutcome = 'EXPIRED';
      const expired = await rejection(
        fx.publisher.publish({ message: 'late' }, fx.account, [mp4()], {}, context()),
      );
      assert.deepEqual([expired.code, expired.retryable], ['platform_unavailable', true]);
    });

    it('reports media Instagram cannot fetch, revoked tokens and rate limits', async () => {
      const gone = memoryMedia(new Uint8Array(sampleJpeg()), {
        filename: 'gone.jpg',
        contentType: 'image/jpeg',
        url: `${fx.host.server.url}/media/nothing.jpg`,
      });
      const unfetched = await rejection(
        fx.publisher.publish({ message: 'x' }, fx.account, [gone], {}, context()),
      );
      assert.deepEqual([unfetched.code, unfetched.retryable], ['media_unavailable', false]);

      fx.fake.failNext({ path: /\/media$/, code: 4, message: '(#4) Application request limit reached' });
      const limited = await rejection(
        fx.publisher.publish({ message: 'x' }, fx.account, [jpeg()], {}, context()),
      );
      assert.deepEqual(
        [limited.code, limited.retryable, limited.retryAfterMs],
        ['rate_limited', true, 60_000],
      );

      fx.fake.invalidateTokens();
      const revoked = await rejection(
        fx.publisher.publish({ message: 'x' }, fx.account, [jpeg()], {}, context()),
      );
      assert.equal(revoked.code, 'needs_reconnect');
    });

    it('finds its own post when a retry follows a lost media_publish answer', async () => {
      fx.fake.loseNextPublishAnswer = true;
      const same = context();
      const before = fx.fake.media.length;
      const lost = await rejection(
        fx.publisher.publish({ message: 'lost answer' }, fx.account, [jpeg()], {}, same),
      );
      assert.equal(lost.retryable, true);
      const retried = await fx.publisher.publish({ message: 'lost answer' }, fx.account, [jpeg()], {}, same);
      assert.equal(fx.fake.media.length, before + 1);
      assert.equal(retried.platformPostId, fx.fake.media.at(-1)!.id);
      assert.equal(retried.url, fx.fake.media.at(-1)!.permalink);
    });

    it('publishes the finished container of an earlier attempt instead of uploading again', async () => {
      fx.fake.failNext({
        path: /\/media_publish$/,
        code: 2,
        message: 'An unexpected error has occurred. Please retry your request later.',
      });
      const same = context();
      const failed = await rejection(
        fx.publisher.publish({ message: 'retry me' }, fx.account, [jpeg()], {}, same),
      );
      assert.equal(failed.code, 'platform_unavailable');
      const containersBefore = fx.fake.containers.size;
      const retried = await fx.publisher.publish({ message: 'retry me' }, fx.account, [jpeg()], {}, same);
      assert.equal(fx.fake.containers.size, containersBefore);
      assert.equal(fx.fake.media.find((m) => m.id === retried.platformPostId)!.caption, 'retry me');
    });

    it('renews a token in its last week and hands it back', async () => {
      const token = fx.fake.issueToken(3 * 86_400);
      const stored: Record<string, unknown>[] = [];
      const expiring = {
        ...fx.account,
        credentials: { accessToken: token, expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      };
      await fx.publisher.publish(
        { message: 'renewed' },
        expiring,
        [jpeg()],
        {},
        context({ onCredentialsRefreshed: (c) => void stored.push(c) }),
      );
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.accessToken, token);
      assert.equal(fx.fake.requestsTo('GET', /^\/refresh_access_token$/).length, 1);
    });
  });

  describe('credentials and connection', () => {
    it('verifies the fx.account the token belongs to', async () => {
      const profile = await fx.publisher.verifyCredentials(fx.account);
      assert.deepEqual(profile, {
        name: 'Postwave Bakery',
        username: 'postwave.bakery',
        avatarUrl: fx.fake.account.pictureUrl,
        platformAccountId: fx.fake.account.id,
      });
      const other = await rejection(
        fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: '17841400000000999' }),
      );
      assert.equal(other.code, 'target_unreachable');
    });

    it('connects with Instagram Login and a long-lived token', async () => {
      const connector = instagramModule.createConnector!(fx.fake.env());
      const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/instagram/callback';
      const url = new URL(connector.authorizeUrl({ state: 'abc', redirectUri }));
      assert.equal(
        url.searchParams.get('scope'),
        'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments,instagram_business_manage_insights',
      );
      const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
      assert.equal(back.searchParams.get('state'), 'abc');
      const [connected, ...rest] = await connector.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      });
      assert.equal(rest.length, 0);
      assert.equal(connected!.platformAccountId, fx.fake.account.id);
      assert.equal(connected!.profile.username, 'postwave.bakery');
      assert.ok(Date.parse(String(connected!.credentials.expiresAt)) > Date.now() + 50 * 86_400_000);
      const result = await fx.publisher.publish(
        { message: 'connected' },
        { ...fx.account, credentials: connected!.credentials },
        [jpeg()],
        {},
        context(),
      );
      assert.ok(result.platformPostId);
    });

    describe('accounts linked through a Facebook Page', () => {
      let facebook: FakeFacebook;
      before(async () => {
        facebook = await startFakeFacebook({
          pages: [
            {
              id: '101010101010101',
              name: 'Bakery',
              instagram: { id: '17841400000000001', username: 'postwave.bakery' },
            },
            { id: '202020202020202', name: 'No Instagram here' },
          ],
        });
      });
      after(() => facebook.close());

      it('lists the Instagram accounts of the pages, with Page tokens', async () => {
        const connector = instagramModule.createConnector!({
          ...facebook.env(),
          ...fx.fake.env(),
          INSTAGRAM_LOGIN: 'facebook',
        });
        const redirectUri = 'http://127.0.0.1:3000/cb';
        const url = new URL(connector.authorizeUrl({ state: 's', redirectUri }));
        assert.equal(url.origin, facebook.url);
        assert.match(url.searchParams.get('scope') ?? '', /instagram_content_publish/);
        const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
        const accounts = await connector.exchangeCode({
          code: back.searchParams.get('code')!,
          redirectUri,
          signal: AbortSignal.timeout(5000),
        });
        assert.deepEqual(
          accounts.map((a) => [a.platformAccountId, a.credentials.loginType, a.profile.username]),
          [['17841400000000001', 'facebook', 'postwave.bakery']],
        );
      });
    });

    it('is registered and refuses malformed settings', () => {
      assert.equal(PublisherRegistry.fromEnv({}).get('instagram')?.displayName, 'Instagram');
      assert.throws(() => instagramModule.create({ INSTAGRAM_GRAPH_URL: 'x' }), /INSTAGRAM_GRAPH_URL/);
      assert.throws(() => instagramModule.create({ INSTAGRAM_LOGIN: 'twitter' }), /INSTAGRAM_LOGIN/);
    });
  });
});
