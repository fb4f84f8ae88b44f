import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { instagramModule } from '../../../src/platforms/instagram/index.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { type FakeInstagram, startFakeInstagram } from '../../fakes/instagram.ts';
import { sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';
import { memoryMedia } from '../memory-media.ts';

const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:ig1`,
  logger: silentLogger,
  ...overrides,
});

describe('Instagram', () => {
  let fake: FakeInstagram;
  let host: MediaHost;
  let publisher: ReturnType<typeof instagramModule.create>;
  let account: PlatformAccount;
  const jpeg = () => host.file(new Uint8Array(sampleJpeg()), 'photo.jpg', 'image/jpeg');
  const mp4 = () => host.file(new Uint8Array(sampleMp4()), 'clip.mp4', 'video/mp4');

  before(async () => {
    fake = await startFakeInstagram();
    host = await new MediaHost().start();
    publisher = instagramModule.create(fake.env());
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.clearInjected();
    fake.quotaUsage = 0;
    account = {
      id: 'ig1',
      platform: 'instagram',
      platformAccountId: fake.account.id,
      credentials: fake.credentials(),
    };
  });

  describe('validation', () => {
    const codes = async (message: string, media: ReturnType<typeof memoryMedia>[]) =>
      (await publisher.validate({ message }, account, media, {})).errors.map((e) => e.code);
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
      const outcome = await publisher.validate({ message: 'x' }, account, [jpeg()], {});
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
      const result = await publisher.publish({ message: 'Fresh bread' }, account, [image], {}, context());
      const published = fake.media.find((m) => m.id === result.platformPostId)!;
      assert.equal(published.caption, 'Fresh bread');
      assert.equal(result.url, published.permalink);
      const container = fake.containers.get(published.containerId)!;
      assert.equal(container.url, image.url);
      assert.deepEqual(container.media?.bytes, sampleJpeg());
      const paths = fake.server.requests
        .filter((r) => !r.path.startsWith('/oauth'))
        .map((r) => `${r.method} ${r.path.replace(/\d{10,}/g, ':id')}`);
      assert.equal(paths[0], 'GET /v23.0/:id/content_publishing_limit');
      assert.ok(paths.includes('POST /v23.0/:id/media_publish'));
    });

    it('publishes a video as a reel after polling status_code until FINISHED', async () => {
      const result = await publisher.publish(
        { message: 'Reel' },
        account,
        [mp4()],
        { shareToFeed: false, thumbOffset: 1500 },
        context(),
      );
      const published = fake.media.find((m) => m.id === result.platformPostId)!;
      const container = fake.containers.get(published.containerId)!;
      assert.equal(container.mediaType, 'REELS');
      assert.equal(container.shareToFeed, false);
      assert.equal(container.thumbOffset, 1500);
      const polls = fake.requestsTo('GET', new RegExp(`/${container.id}$`));
      assert.ok(polls.length >= 3, `polled ${polls.length} times`);
    });

    it('publishes a carousel of images and a video', async () => {
      const result = await publisher.publish(
        { message: 'Carousel' },
        account,
        [jpeg(), mp4(), jpeg()],
        {},
        context(),
      );
      const published = fake.media.find((m) => m.id === result.platformPostId)!;
      assert.equal(published.mediaType, 'CAROUSEL');
      assert.deepEqual(
        published.children.map((c) => c.mediaType),
        ['IMAGE', 'VIDEO', 'IMAGE'],
      );
      assert.equal(published.caption, 'Carousel');
    });

    it('refuses with a clear error when the 24-hour quota is spent, creating nothing', async () => {
      fake.quotaUsage = 100;
      const before = fake.containers.size;
      const error = await rejection(
        publisher.publish({ message: 'Too many' }, account, [jpeg()], {}, context()),
      );
      assert.deepEqual([error.code, error.retryable], ['rate_limited', false]);
      assert.match(error.message, /100 API posts allowed in 24 hours/);
      assert.equal(fake.containers.size, before);
    });

    it('reports processing ERROR as media_rejected and EXPIRED as retryable', async () => {
      fake.nextVideoOutcome = 'ERROR';
      const failed = await rejection(publisher.publish({ message: 'bad' }, account, [mp4()], {}, context()));
      assert.deepEqual([failed.code, failed.retryable], ['media_rejected', false]);
      assert.match(failed.message, /Unsupported video format/);
      fake.nextVideoOutcome = 'EXPIRED';
      const expired = await rejection(
        publisher.publish({ message: 'late' }, account, [mp4()], {}, context()),
      );
      assert.deepEqual([expired.code, expired.retryable], ['platform_unavailable', true]);
    });

    it('reports media Instagram cannot fetch, revoked tokens and rate limits', async () => {
      const gone = memoryMedia(new Uint8Array(sampleJpeg()), {
        filename: 'gone.jpg',
        contentType: 'image/jpeg',
        url: `${host.server.url}/media/nothing.jpg`,
      });
      const unfetched = await rejection(publisher.publish({ message: 'x' }, account, [gone], {}, context()));
      assert.deepEqual([unfetched.code, unfetched.retryable], ['media_unavailable', false]);

      fake.failNext({ path: /\/media$/, code: 4, message: '(#4) Application request limit reached' });
      const limited = await rejection(publisher.publish({ message: 'x' }, account, [jpeg()], {}, context()));
      assert.deepEqual(
        [limited.code, limited.retryable, limited.retryAfterMs],
        ['rate_limited', true, 60_000],
      );

      fake.invalidateTokens();
      const revoked = await rejection(publisher.publish({ message: 'x' }, account, [jpeg()], {}, context()));
      assert.equal(revoked.code, 'needs_reconnect');
    });

    it('finds its own post when a retry follows a lost media_publish answer', async () => {
      fake.loseNextPublishAnswer = true;
      const same = context();
      const before = fake.media.length;
      const lost = await rejection(
        publisher.publish({ message: 'lost answer' }, account, [jpeg()], {}, same),
      );
      assert.equal(lost.retryable, true);
      const retried = await publisher.publish({ message: 'lost answer' }, account, [jpeg()], {}, same);
      assert.equal(fake.media.length, before + 1);
      assert.equal(retried.platformPostId, fake.media.at(-1)!.id);
      assert.equal(retried.url, fake.media.at(-1)!.permalink);
    });

    it('publishes the finished container of an earlier attempt instead of uploading again', async () => {
      fake.failNext({
        path: /\/media_publish$/,
        code: 2,
        message: 'An unexpected error has occurred. Please retry your request later.',
      });
      const same = context();
      const failed = await rejection(publisher.publish({ message: 'retry me' }, account, [jpeg()], {}, same));
      assert.equal(failed.code, 'platform_unavailable');
      const containersBefore = fake.containers.size;
      const retried = await publisher.publish({ message: 'retry me' }, account, [jpeg()], {}, same);
      assert.equal(fake.containers.size, containersBefore);
      assert.equal(fake.media.find((m) => m.id === retried.platformPostId)!.caption, 'retry me');
    });

    it('renews a token in its last week and hands it back', async () => {
      const token = fake.issueToken(3 * 86_400);
      const stored: Record<string, unknown>[] = [];
      const expiring = {
        ...account,
        credentials: { accessToken: token, expiresAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
      };
      await publisher.publish(
        { message: 'renewed' },
        expiring,
        [jpeg()],
        {},
        context({ onCredentialsRefreshed: (c) => void stored.push(c) }),
      );
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.accessToken, token);
      assert.equal(fake.requestsTo('GET', /^\/refresh_access_token$/).length, 1);
    });
  });

  describe('credentials and connection', () => {
    it('verifies the account the token belongs to', async () => {
      const profile = await publisher.verifyCredentials(account);
      assert.deepEqual(profile, {
        name: 'Postwave Bakery',
        username: 'postwave.bakery',
        avatarUrl: fake.account.pictureUrl,
        platformAccountId: fake.account.id,
      });
      const other = await rejection(
        publisher.verifyCredentials({ ...account, platformAccountId: '17841400000000999' }),
      );
      assert.equal(other.code, 'target_unreachable');
    });

    it('connects with Instagram Login and a long-lived token', async () => {
      const connector = instagramModule.createConnector!(fake.env());
      const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/instagram/callback';
      const url = new URL(connector.authorizeUrl({ state: 'abc', redirectUri }));
      assert.equal(
        url.searchParams.get('scope'),
        'instagram_business_basic,instagram_business_content_publish,instagram_business_manage_comments',
      );
      const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
      assert.equal(back.searchParams.get('state'), 'abc');
      const [connected, ...rest] = await connector.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      });
      assert.equal(rest.length, 0);
      assert.equal(connected!.platformAccountId, fake.account.id);
      assert.equal(connected!.profile.username, 'postwave.bakery');
      assert.ok(Date.parse(String(connected!.credentials.expiresAt)) > Date.now() + 50 * 86_400_000);
      const result = await publisher.publish(
        { message: 'connected' },
        { ...account, credentials: connected!.credentials },
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
          ...fake.env(),
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
