import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { facebookModule } from '../../../src/platforms/facebook/index.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeFacebook, startFakeFacebook } from '../../fakes/facebook.ts';
import { sampleGif, sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { MediaHost } from '../media-host.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

const context = (): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:fb1`,
  logger: silentLogger,
});

describe('Facebook Pages', () => {
  let fake: FakeFacebook;
  let host: MediaHost;
  let publisher: ReturnType<typeof facebookModule.create>;
  let page: PlatformAccount;

  before(async () => {
    fake = await startFakeFacebook({ videoChunkBytes: 64 * 1024 });
    host = await new MediaHost().start();
    publisher = facebookModule.create({ ...fake.env(), FACEBOOK_RESUMABLE_VIDEO_BYTES: String(100 * 1024) });
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.clearInjected();
    page = {
      id: 'fb1',
      platform: 'facebook',
      platformAccountId: fake.pages[0]!.id,
      credentials: { pageAccessToken: fake.pageToken() },
    };
  });

  describe('validation', () => {
    it('allows 63206 characters and refuses 63207', async () => {
      assert.deepEqual((await publisher.validate({ message: 'a'.repeat(63206) }, page, [], {})).errors, []);
      const long = await publisher.validate({ message: 'a'.repeat(63207) }, page, [], {});
      assert.deepEqual(
        long.errors.map((e) => e.code),
        ['text_too_long'],
      );
    });

    it('refuses mixed media, oversize photos and too many photos', async () => {
      const jpg = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' });
      const big = { ...jpg, size: 5 * 1024 * 1024 };
      const mp4 = memoryMedia(new Uint8Array(sampleMp4()), { filename: 'v.mp4', contentType: 'video/mp4' });
      const codes = async (media: (typeof jpg)[]) =>
        (await publisher.validate({ message: 'x' }, page, media, {})).errors.map((e) => e.code);
      assert.deepEqual(await codes([jpg, mp4]), ['media_mix_unsupported']);
      assert.deepEqual(await codes([big]), ['media_too_large']);
      assert.deepEqual(await codes(Array(11).fill(jpg)), ['too_many_media']);
      assert.deepEqual(await codes([]), []);
    });

    it('warns media_url_not_public for media Facebook fetches from a loopback URL', async () => {
      const local = memoryMedia(new Uint8Array(sampleJpeg()), {
        filename: 'a.jpg',
        contentType: 'image/jpeg',
        url: 'http://127.0.0.1:3000/media/a.jpg',
      });
      const outcome = await publisher.validate({ message: 'x' }, page, [local], {});
      assert.deepEqual(outcome.errors, []);
      assert.deepEqual(
        outcome.warnings.map((w) => [w.code, w.path]),
        [['media_url_not_public', 'media[0]']],
      );
      const pub = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' });
      assert.deepEqual((await publisher.validate({ message: 'x' }, page, [pub], {})).warnings, []);
    });
  });

  describe('publishing', () => {
    it('posts text to /feed, with a link', async () => {
      const result = await publisher.publish(
        { message: 'Fresh bread today' },
        page,
        [],
        { link: 'https://bakery.example' },
        context(),
      );
      const post = fake.posts.find((p) => p.id === result.platformPostId)!;
      assert.deepEqual([post.message, post.link], ['Fresh bread today', 'https://bakery.example']);
      assert.equal(result.url, `https://www.facebook.com/${post.id}`);
      assert.match(result.platformPostId, new RegExp(`^${page.platformAccountId}_\\d+$`));
    });

    it('posts one photo to /photos, fetched by Facebook from its URL', async () => {
      const png = host.file(new Uint8Array(samplePng()), 'a.png', 'image/png');
      const result = await publisher.publish({ message: 'One photo' }, page, [png], {}, context());
      const post = fake.posts.find((p) => p.id === result.platformPostId)!;
      const photo = fake.photos.get(post.photoIds[0]!)!;
      assert.equal(photo.published, true);
      assert.equal(photo.caption, 'One photo');
      assert.deepEqual(photo.media?.bytes, samplePng());
    });

    it('posts several photos as unpublished photos attached to one feed post', async () => {
      const files = [
        host.file(new Uint8Array(samplePng()), 'a.png', 'image/png'),
        host.file(new Uint8Array(sampleJpeg()), 'b.jpg', 'image/jpeg'),
        host.file(new Uint8Array(sampleGif()), 'c.gif', 'image/gif'),
      ];
      const result = await publisher.publish({ message: 'Album' }, page, files, {}, context());
      const post = fake.posts.find((p) => p.id === result.platformPostId)!;
      assert.equal(post.message, 'Album');
      assert.equal(post.photoIds.length, 3);
      for (const id of post.photoIds) assert.equal(fake.photos.get(id)!.published, false);
    });

    it('sends a small video by URL and a large one in chunks from storage', async () => {
      const small = host.file(new Uint8Array(sampleMp4()), 'small.mp4', 'video/mp4');
      const first = await publisher.publish({ message: 'Small clip' }, page, [small], {}, context());
      assert.equal(fake.videos.get(first.platformPostId)!.fileUrl, small.url);
      assert.equal(
        first.url,
        `https://www.facebook.com/${page.platformAccountId}/videos/${first.platformPostId}`,
      );

      const bytes = patternBytes(300 * 1024, 4);
      const large = memoryMedia(bytes, { filename: 'large.mp4', contentType: 'video/mp4' });
      const second = await publisher.publish({ message: 'Large clip' }, page, [large], {}, context());
      const video = fake.videos.get(second.platformPostId)!;
      assert.deepEqual(new Uint8Array(video.bytes!), bytes);
      assert.equal(video.description, 'Large clip');
      assert.equal(video.status, 'processing');
      assert.equal(large.reads.length, 5);
    });

    it('finds its own post when a retry follows a lost answer (506 duplicate), instead of failing', async () => {
      fake.loseNextPostAnswer = true;
      const same = context();
      const lost = await rejection(publisher.publish({ message: 'Lost answer' }, page, [], {}, same));
      assert.equal(lost.retryable, true);
      const retried = await publisher.publish({ message: 'Lost answer' }, page, [], {}, same);
      const matching = fake.posts.filter((p) => p.message === 'Lost answer');
      assert.equal(matching.length, 1);
      assert.equal(retried.platformPostId, matching[0]!.id);
    });

    it('fails with media_rejected when Facebook cannot fetch the photo', async () => {
      const gone = memoryMedia(new Uint8Array(sampleJpeg()), {
        filename: 'gone.jpg',
        contentType: 'image/jpeg',
        url: `${host.server.url}/media/missing.jpg`,
      });
      const error = await rejection(publisher.publish({ message: 'x' }, page, [gone], {}, context()));
      assert.equal(error.code, 'media_rejected');
    });
  });

  describe('errors', () => {
    const cases: [string, { code: number; subcode?: number; message: string }, string, boolean][] = [
      ['190 expired', { code: 190, subcode: 463, message: 'Session has expired' }, 'needs_reconnect', false],
      ['4 app limit', { code: 4, message: '(#4) Application request limit reached' }, 'rate_limited', true],
      ['17 user limit', { code: 17, message: '(#17) User request limit reached' }, 'rate_limited', true],
      ['32 page limit', { code: 32, message: '(#32) Page request limit reached' }, 'rate_limited', true],
      [
        '341 feed limit',
        { code: 341, message: '(#341) Feed action request limit reached' },
        'rate_limited',
        false,
      ],
      [
        '368 blocked',
        { code: 368, message: 'The action attempted has been deemed abusive' },
        'content_rejected',
        false,
      ],
      ['506 duplicate', { code: 506, message: '(#506) Duplicate status message' }, 'content_rejected', false],
      [
        '2 service',
        { code: 2, message: 'An unexpected error has occurred. Please retry your request later.' },
        'platform_unavailable',
        true,
      ],
    ];
    for (const [name, error, code, retryable] of cases) {
      it(`classifies ${name} as ${code}${retryable ? ' (retry later)' : ' (permanent)'}`, async () => {
        fake.failNext({ path: /\/feed$/, ...error });
        const thrown = await rejection(
          publisher.publish({ message: `case ${name}` }, page, [], {}, context()),
        );
        assert.deepEqual([thrown.code, thrown.retryable], [code, retryable]);
      });
    }

    it('takes the wait from X-Business-Use-Case-Usage', async () => {
      fake.failNext({
        path: /\/feed$/,
        code: 32,
        message: '(#32) Page request limit reached',
        regainMinutes: 3,
      });
      const thrown = await rejection(publisher.publish({ message: 'limited' }, page, [], {}, context()));
      assert.equal(thrown.retryAfterMs, 180_000);
    });

    it('reports the fake’s real duplicate, block and token answers', async () => {
      await publisher.publish({ message: 'twice' }, page, [], {}, context());
      assert.equal(
        (await rejection(publisher.publish({ message: 'twice' }, page, [], {}, context()))).code,
        'content_rejected',
      );
      fake.blockPage(page.platformAccountId);
      assert.match(
        (await rejection(publisher.publish({ message: 'blocked' }, page, [], {}, context()))).message,
        /abusive/,
      );
      fake.blockPage(page.platformAccountId, false);
      const other = { ...page, platformAccountId: fake.pages[1]!.id };
      assert.equal(
        (await rejection(publisher.publish({ message: 'other' }, other, [], {}, context()))).code,
        'needs_reconnect',
      );
      fake.invalidateTokens();
      assert.equal(
        (await rejection(publisher.publish({ message: 'gone' }, page, [], {}, context()))).code,
        'needs_reconnect',
      );
    });
  });

  describe('credentials and connection', () => {
    it('verifies the page', async () => {
      const profile = await publisher.verifyCredentials(page);
      assert.equal(profile.name, 'Postwave Bakery');
      assert.equal(profile.username, 'postwavebakery');
      const wrong = { ...page, platformAccountId: fake.pages[1]!.id };
      assert.equal((await rejection(publisher.verifyCredentials(wrong))).code, 'target_unreachable');
    });

    it('connects through Facebook Login: every page, one account each, with a long-lived Page token', async () => {
      const connector = facebookModule.createConnector!(fake.env());
      assert.equal(connector.configured, true);
      const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/facebook/callback';
      const url = new URL(connector.authorizeUrl({ state: 'xyz', redirectUri }));
      assert.equal(
        url.searchParams.get('scope'),
        'pages_show_list,pages_manage_posts,pages_read_engagement,pages_manage_engagement,business_management',
      );
      const answer = await fetch(url, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location')!);
      assert.equal(back.searchParams.get('state'), 'xyz');
      const accounts = await connector.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      });
      assert.deepEqual(
        accounts.map((a) => [a.platformAccountId, a.kind, a.profile.name]),
        fake.pages.map((p) => [p.id, 'Page', p.name]),
      );
      assert.ok(
        fake
          .requestsTo('GET', /oauth\/access_token$/)
          .some((r) => r.query.get('grant_type') === 'fb_exchange_token'),
      );
      const posted = await publisher.publish(
        { message: 'via login' },
        {
          id: 'x',
          platform: 'facebook',
          platformAccountId: accounts[1]!.platformAccountId,
          credentials: accounts[1]!.credentials,
        },
        [],
        {},
        context(),
      );
      assert.match(posted.platformPostId, new RegExp(`^${fake.pages[1]!.id}_`));
    });

    it('uses a Login for Business configuration when one is set', () => {
      const connector = facebookModule.createConnector!({
        ...fake.env(),
        FACEBOOK_LOGIN_CONFIG_ID: '998877',
      });
      const url = new URL(connector.authorizeUrl({ state: 's', redirectUri: 'http://x.test/cb' }));
      assert.equal(url.searchParams.get('config_id'), '998877');
      assert.equal(url.searchParams.get('scope'), null);
    });

    it('is registered and refuses malformed settings', () => {
      assert.equal(PublisherRegistry.fromEnv({}).get('facebook')?.displayName, 'Facebook');
      assert.throws(() => facebookModule.create({ FACEBOOK_GRAPH_URL: 'ftp://x' }), /FACEBOOK_GRAPH_URL/);
      assert.throws(() => facebookModule.create({ FACEBOOK_GRAPH_VERSION: '23' }), /FACEBOOK_GRAPH_VERSION/);
    });
  });
});
