import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { facebookModule } from '../../../src/platforms/facebook/index.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { sampleGif, sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, facebookFixture } from './setup.ts';

describe('Facebook Pages', () => {
  const fx = facebookFixture();

  describe('validation', () => {
    it('allows 63206 characters and refuses 63207', async () => {
      assert.deepEqual(
        (await fx.publisher.validate({ message: 'a'.repeat(63206) }, fx.page, [], {})).errors,
        [],
      );
      const long = await fx.publisher.validate({ message: 'a'.repeat(63207) }, fx.page, [], {});
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
        (await fx.publisher.validate({ message: 'x' }, fx.page, media, {})).errors.map((e) => e.code);
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
      const outcome = await fx.publisher.validate({ message: 'x' }, fx.page, [local], {});
      assert.deepEqual(outcome.errors, []);
      assert.deepEqual(
        outcome.warnings.map((w) => [w.code, w.path]),
        [['media_url_not_public', 'media[0]']],
      );
      const pub = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' });
      assert.deepEqual((await fx.publisher.validate({ message: 'x' }, fx.page, [pub], {})).warnings, []);
    });
  });

  describe('publishing', () => {
    it('posts text to /feed, with a link', async () => {
      const result = await fx.publisher.publish(
        { message: 'Fresh bread today' },
        fx.page,
        [],
        { link: 'https://bakery.example' },
        context(),
      );
      const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
      assert.deepEqual([post.message, post.link], ['Fresh bread today', 'https://bakery.example']);
      assert.equal(result.url, `https://www.facebook.com/${post.id}`);
      assert.match(result.platformPostId, new RegExp(`^${fx.page.platformAccountId}_\\d+$`));
    });

    it('posts one photo to /photos, fetched by Facebook from its URL', async () => {
      const png = fx.host.file(new Uint8Array(samplePng()), 'a.png', 'image/png');
      const result = await fx.publisher.publish({ message: 'One photo' }, fx.page, [png], {}, context());
      const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
      const photo = fx.fake.photos.get(post.photoIds[0]!)!;
      assert.equal(photo.published, true);
      assert.equal(photo.caption, 'One photo');
      assert.deepEqual(photo.media?.bytes, samplePng());
    });

    it('posts several photos as unpublished photos attached to one feed post', async () => {
      const files = [
        fx.host.file(new Uint8Array(samplePng()), 'a.png', 'image/png'),
        fx.host.file(new Uint8Array(sampleJpeg()), 'b.jpg', 'image/jpeg'),
        fx.host.file(new Uint8Array(sampleGif()), 'c.gif', 'image/gif'),
      ];
      const result = await fx.publisher.publish({ message: 'Album' }, fx.page, files, {}, context());
      const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
      assert.equal(post.message, 'Album');
      assert.equal(post.photoIds.length, 3);
      for (const id of post.photoIds) assert.equal(fx.fake.photos.get(id)!.published, false);
    });

    it('sends a small video by URL and a large one in chunks from storage', async () => {
      const small = fx.host.file(new Uint8Array(sampleMp4()), 'small.mp4', 'video/mp4');
      const first = await fx.publisher.publish({ message: 'Small clip' }, fx.page, [small], {}, context());
      assert.equal(fx.fake.videos.get(first.platformPostId)!.fileUrl, small.url);
      assert.equal(
        first.url,
        `https://www.facebook.com/${fx.page.platformAccountId}/videos/${first.platformPostId}`,
      );

      const bytes = patternBytes(300 * 1024, 4);
      const large = memoryMedia(bytes, { filename: 'large.mp4', contentType: 'video/mp4' });
      const second = await fx.publisher.publish({ message: 'Large clip' }, fx.page, [large], {}, context());
      const video = fx.fake.videos.get(second.platformPostId)!;
      assert.deepEqual(new Uint8Array(video.bytes!), bytes);
      assert.equal(video.description, 'Large clip');
      assert.equal(video.status, 'processing');
      assert.equal(large.reads.length, 5);
    });

    it('finds its own post when a retry follows a lost answer (506 duplicate), instead of failing', async () => {
      fx.fake.loseNextPostAnswer = true;
      const same = context();
      const lost = await rejection(fx.publisher.publish({ message: 'Lost answer' }, fx.page, [], {}, same));
      assert.equal(lost.retryable, true);
      const retried = await fx.publisher.publish({ message: 'Lost answer' }, fx.page, [], {}, same);
      const matching = fx.fake.posts.filter((p) => p.message === 'Lost answer');
      assert.equal(matching.length, 1);
      assert.equal(retried.platformPostId, matching[0]!.id);
    });

    it('fails with media_rejected when Facebook cannot fetch the photo', async () => {
      const gone = memoryMedia(new Uint8Array(sampleJpeg()), {
        filename: 'gone.jpg',
        contentType: 'image/jpeg',
        url: `${fx.host.server.url}/media/missing.jpg`,
      });
      const error = await rejection(fx.publisher.publish({ message: 'x' }, fx.page, [gone], {}, context()));
      assert.equal(error.code, 'media_rejected');
    });
  });

  describe('errors', () => {
    const cases: [string, { code: number; subcode?: number; message: string }, string, boolean][] = [
      ['190 expired', { code: 190, subcode: 463, message: 'Session has expired' }, 'needs_reconnect', false],
      ['4 app limit', { code: 4, message: '(#4) Application request limit reached' }, 'rate_limited', true],
      ['17 user limit', { code: 17, message: '(#17) User request limit reached' }, 'rate_limited', true],
      ['32 fx.page limit', { code: 32, message: '(#32) Page request limit reached' }, 'rate_limited', true],
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
      [
        '506 duplicate',
        { code: 506, message: '(#506) Duplicate status message' },
        'duplicate_content',
        false,
      ],
      [
        '2 service',
        { code: 2, message: 'An unexpected error has occurred. Please retry your request later.' },
        'platform_unavailable',
        true,
      ],
    ];
    for (const [name, error, code, retryable] of cases) {
      it(`classifies ${name} as ${code}${retryable ? ' (retry later)' : ' (permanent)'}`, async () => {
        fx.fake.failNext({ path: /\/feed$/, ...error });
        const thrown = await rejection(
          fx.publisher.publish({ message: `case ${name}` }, fx.page, [], {}, context()),
        );
        assert.deepEqual([thrown.code, thrown.retryable], [code, retryable]);
      });
    }

    it('takes the wait from X-Business-Use-Case-Usage', async () => {
      fx.fake.failNext({
        path: /\/feed$/,
        code: 32,
        message: '(#32) Page request limit reached',
        regainMinutes: 3,
      });
      const thrown = await rejection(
        fx.publisher.publish({ message: 'limited' }, fx.page, [], {}, context()),
      );
      assert.equal(thrown.retryAfterMs, 180_000);
    });

    it('reports the fx.fake’s real duplicate, block and token answers', async () => {
      await fx.publisher.publish({ message: 'twice' }, fx.page, [], {}, context());
      assert.equal(
        (await rejection(fx.publisher.publish({ message: 'twice' }, fx.page, [], {}, context()))).code,
        'duplicate_content',
      );
      fx.fake.blockPage(fx.page.platformAccountId);
      assert.match(
        (await rejection(fx.publisher.publish({ message: 'blocked' }, fx.page, [], {}, context()))).message,
        /abusive/,
      );
      fx.fake.blockPage(fx.page.platformAccountId, false);
      const other = { ...fx.page, platformAccountId: fx.fake.pages[1]!.id };
      assert.equal(
        (await rejection(fx.publisher.publish({ message: 'other' }, other, [], {}, context()))).code,
        'needs_reconnect',
      );
      fx.fake.invalidateTokens();
      assert.equal(
        (await rejection(fx.publisher.publish({ message: 'gone' }, fx.page, [], {}, context()))).code,
        'needs_reconnect',
      );
    });
  });

  describe('credentials and connection', () => {
    it('verifies the fx.page', async () => {
      const profile = await fx.publisher.verifyCredentials(fx.page);
      assert.equal(profile.name, 'Postwave Bakery');
      assert.equal(profile.username, 'postwavebakery');
      const wrong = { ...fx.page, platformAccountId: fx.fake.pages[1]!.id };
      assert.equal((await rejection(fx.publisher.verifyCredentials(wrong))).code, 'target_unreachable');
    });

    it('connects through Facebook Login: every fx.page, one account each, with a long-lived Page token', async () => {
      const connector = facebookModule.createConnector!(fx.fake.env());
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
        fx.fake.pages.map((p) => [p.id, 'Page', p.name]),
      );
      assert.ok(
        fx.fake
          .requestsTo('GET', /oauth\/access_token$/)
          .some((r) => r.query.get('grant_type') === 'fb_exchange_token'),
      );
      const posted = await fx.publisher.publish(
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
      assert.match(posted.platformPostId, new RegExp(`^${fx.fake.pages[1]!.id}_`));
    });

    it('uses a Login for Business configuration when one is set', () => {
      const connector = facebookModule.createConnector!({
        ...fx.fake.env(),
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
