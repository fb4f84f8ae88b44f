import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { linkedInConfigFromEnv } from '../../../src/platforms/linkedin/config.ts';
import { linkedInModule } from '../../../src/platforms/linkedin/index.ts';
import { escapeLittleText } from '../../../src/platforms/linkedin/little-text.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { parseLittleText } from '../../fakes/linkedin.ts';
import { sampleGif, sampleJpeg, samplePng } from '../../fakes/sample-media.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, linkedInFixture } from './setup.ts';

describe('LinkedIn', () => {
  const fx = linkedInFixture();
  const org = (credentials = fx.fake.credentials()): PlatformAccount => ({
    id: 'li-org',
    platform: 'linkedin',
    platformAccountId: 'urn:li:organization:2414183',
    credentials,
  });

  describe('validation', () => {
    it('counts 3000 characters and refuses 3001', async () => {
      const ok = await fx.publisher.validate({ message: 'a'.repeat(3000) }, fx.member, [], {});
      assert.deepEqual(ok.errors, []);
      const long = await fx.publisher.validate({ message: 'a'.repeat(3001) }, fx.member, [], {});
      assert.deepEqual(
        long.errors.map((e) => e.code),
        ['text_too_long'],
      );
    });

    it('refuses a video with images, more than 20 images, PDFs, and a malformed author', async () => {
      const img = memoryMedia(new Uint8Array(sampleJpeg()), { filename: 'a.jpg', contentType: 'image/jpeg' });
      const vid = memoryMedia(patternBytes(100_000), { filename: 'v.mp4', contentType: 'video/mp4' });
      const pdf = memoryMedia(patternBytes(10), { filename: 'd.pdf', contentType: 'application/pdf' });
      const mixed = await fx.publisher.validate({ message: 'x' }, fx.member, [img, vid], {});
      assert.deepEqual(
        mixed.errors.map((e) => e.code),
        ['media_mix_unsupported'],
      );
      const many = await fx.publisher.validate({ message: 'x' }, fx.member, Array(21).fill(img), {});
      assert.deepEqual(
        many.errors.map((e) => e.code),
        ['too_many_media'],
      );
      const doc = await fx.publisher.validate({ message: 'x' }, fx.member, [pdf], {});
      assert.deepEqual(
        doc.errors.map((e) => e.code),
        ['media_type_unsupported'],
      );
      const bad = await fx.publisher.validate(
        { message: 'x' },
        { ...fx.member, platformAccountId: '12345' },
        [],
        {},
      );
      assert.deepEqual(
        bad.errors.map((e) => e.code),
        ['account_invalid'],
      );
      const connections = await fx.publisher.validate({ message: 'x' }, org(), [], {
        visibility: 'CONNECTIONS',
      });
      assert.deepEqual(
        connections.errors.map((e) => e.code),
        ['invalid_option'],
      );
    });

    it('counts as the manifest does', () => {
      const message = 'héllo 👋 (world)';
      assert.equal(
        linkedInModule.manifest?.text.count({ message, hasMedia: false, options: {} }).used,
        message.length,
      );
    });
  });

  describe('little text', () => {
    const message = 'Launch (beta) @team #news [link] <b> *bold* _it_ ~s~ {x} a|b \\ done';

    it('the fx.fake cuts an unescaped commentary short, as LinkedIn does', () => {
      assert.equal(parseLittleText(message), 'Launch ');
      assert.equal(parseLittleText(escapeLittleText(message)), message);
      assert.equal(parseLittleText('{hashtag|\\#|news} @[Ada](urn:li:person:abc)'), '#news Ada');
    });

    it('publishes every reserved character intact', async () => {
      const result = await fx.publisher.publish({ message }, fx.member, [], {}, context());
      const post = fx.fake.posts.find((p) => p.urn === result.platformPostId)!;
      assert.equal(post.text, message);
      assert.equal(post.commentary, escapeLittleText(message));
      assert.equal(result.url, `https://www.linkedin.com/feed/update/${post.urn}/`);
    });
  });

  describe('publishing', () => {
    it('sends the version and Rest.li headers, public visibility by default', async () => {
      const result = await fx.publisher.publish({ message: 'Hello LinkedIn' }, fx.member, [], {}, context());
      assert.match(result.platformPostId, /^urn:li:share:\d+$/);
      const [request] = fx.fake.requestsTo('POST', /^\/rest\/posts$/).slice(-1);
      assert.equal(request!.headers['linkedin-version'], linkedInConfigFromEnv({}).version);
      assert.equal(request!.headers['x-restli-protocol-version'], '2.0.0');
      assert.deepEqual((request!.body as Record<string, unknown>).distribution, {
        feedDistribution: 'MAIN_FEED',
        targetEntities: [],
        thirdPartyDistributionChannels: [],
      });
      assert.equal(fx.fake.posts.at(-1)!.visibility, 'PUBLIC');
    });

    it('posts one image, then several as a multi-image post, as an organization', async () => {
      const png = memoryMedia(new Uint8Array(samplePng()), { filename: 'a.png', contentType: 'image/png' });
      const gif = memoryMedia(new Uint8Array(sampleGif()), { filename: 'b.gif', contentType: 'image/gif' });
      const one = await fx.publisher.publish({ message: 'One image' }, org(), [png], {}, context());
      const single = fx.fake.posts.find((p) => p.urn === one.platformPostId)!;
      assert.equal(single.author, 'urn:li:organization:2414183');
      assert.match(single.content?.media?.id ?? '', /^urn:li:image:/);
      const two = await fx.publisher.publish(
        { message: 'Two images' },
        org(),
        [png, gif],
        { visibility: 'LOGGED_IN' },
        context(),
      );
      const multi = fx.fake.posts.find((p) => p.urn === two.platformPostId)!;
      assert.equal(multi.content?.multiImage?.images.length, 2);
      assert.deepEqual(fx.fake.images.get(multi.content!.multiImage!.images[1]!.id)!.bytes, sampleGif());
      assert.equal(multi.visibility, 'LOGGED_IN');
    });

    it('uploads a video in the parts LinkedIn asks for, finalizes, waits for processing', async () => {
      const bytes = patternBytes(3 * 64 * 1024 + 777, 9);
      const video = memoryMedia(bytes, { filename: 'v.mp4', contentType: 'video/mp4' });
      const result = await fx.publisher.publish({ message: 'Video' }, fx.member, [video], {}, context());
      const post = fx.fake.posts.find((p) => p.urn === result.platformPostId)!;
      const uploaded = fx.fake.videos.get(post.content!.media!.id)!;
      assert.equal(uploaded.status, 'AVAILABLE');
      assert.deepEqual(new Uint8Array(uploaded.bytes!), bytes);
      assert.equal(fx.fake.requestsTo('PUT', /^\/dms-uploads\/video\//).length >= 4, true);
      assert.deepEqual(video.reads.length, 4);
    });

    it('reports a video LinkedIn could not process as media_rejected', async () => {
      fx.fake.failNextVideoProcessing = true;
      const video = memoryMedia(patternBytes(1000), { filename: 'v.mp4', contentType: 'video/mp4' });
      const error = await rejection(
        fx.publisher.publish({ message: 'Bad video' }, fx.member, [video], {}, context()),
      );
      assert.equal(error.code, 'media_rejected');
      assert.equal(
        fx.fake.posts.some((p) => p.commentary === 'Bad video'),
        false,
      );
    });

    it('classifies revoked tokens, missing permissions, daily limits, duplicates and outages', async () => {
      const duplicate = await rejection(
        (async () => {
          await fx.publisher.publish({ message: 'Same words' }, fx.member, [], {}, context());
          await fx.publisher.publish({ message: 'Same words' }, fx.member, [], {}, context());
        })(),
      );
      assert.deepEqual([duplicate.code, duplicate.retryable], ['duplicate_content', false]);
      assert.match(duplicate.message, /duplicate/);

      fx.fake.failNext({
        path: /^\/rest\/posts$/,
        status: 429,
        code: 'TOO_MANY_REQUESTS',
        serviceErrorCode: 101,
        message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
      });
      const daily = await rejection(
        fx.publisher.publish({ message: 'Throttled' }, fx.member, [], {}, context()),
      );
      assert.deepEqual([daily.code, daily.retryable], ['rate_limited', false]);

      fx.fake.failNext({
        path: /^\/rest\/posts$/,
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'Down',
      });
      const down = await rejection(fx.publisher.publish({ message: 'Down' }, fx.member, [], {}, context()));
      assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);

      const notAdmin = await rejection(
        fx.publisher.publish(
          { message: 'Not mine' },
          { ...org(), platformAccountId: 'urn:li:organization:999999' },
          [],
          {},
          context(),
        ),
      );
      assert.equal(notAdmin.code, 'needs_reconnect');

      fx.fake.revokeAll();
      const revoked = await rejection(
        fx.publisher.publish({ message: 'Revoked' }, fx.member, [], {}, context()),
      );
      assert.deepEqual([revoked.code, revoked.retryable], ['needs_reconnect', false]);
    });

    it('refreshes a token that expires within a day and hands the new one back', async () => {
      const refreshToken = fx.fake.issueRefreshToken();
      const { token } = fx.fake.issueAccessToken({ expiresInSeconds: 3600 });
      const stored: Record<string, unknown>[] = [];
      const account = {
        ...fx.member,
        credentials: {
          accessToken: token,
          refreshToken,
          expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
      };
      await fx.publisher.publish(
        { message: 'Fresh' },
        account,
        [],
        {},
        context({ onCredentialsRefreshed: (c) => void stored.push(c) }),
      );
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0]!.accessToken, token);
      assert.ok(Date.parse(String(stored[0]!.expiresAt)) > Date.now() + 50 * 86_400_000);
      assert.equal(
        fx.fake.requestsTo('POST', /accessToken$/).at(-1)!.body &&
          (fx.fake.requestsTo('POST', /accessToken$/).at(-1)!.body as Record<string, string>).grant_type,
        'refresh_token',
      );
    });
    it('finds its own post when a retry follows a lost answer, instead of posting twice', async () => {
      fx.fake.loseNextPostAnswer = true;
      const same = context();
      const lost = await rejection(fx.publisher.publish({ message: 'Answer lost' }, fx.member, [], {}, same));
      assert.equal(lost.retryable, true);
      const retried = await fx.publisher.publish({ message: 'Answer lost' }, fx.member, [], {}, same);
      const matching = fx.fake.posts.filter((p) => p.commentary === 'Answer lost');
      assert.equal(matching.length, 1);
      assert.equal(retried.platformPostId, matching[0]!.urn);
      // Another publish of the same words is a real duplicate.
      assert.equal(
        (await rejection(fx.publisher.publish({ message: 'Answer lost' }, fx.member, [], {}, context())))
          .code,
        'duplicate_content',
      );
    });

    it('refreshes once when LinkedIn refuses a token before its stated expiry', async () => {
      const refreshToken = fx.fake.issueRefreshToken();
      const stored: Record<string, unknown>[] = [];
      const account = { ...fx.member, credentials: { accessToken: 'AQVexpired-or-unknown', refreshToken } };
      const result = await fx.publisher.publish(
        { message: 'After a 401' },
        account,
        [],
        {},
        context({ onCredentialsRefreshed: (c) => void stored.push(c) }),
      );
      assert.match(result.platformPostId, /^urn:li:share:/);
      assert.equal(stored.length, 1);
      const noRefresh = await rejection(
        fx.publisher.publish(
          { message: 'No refresh token' },
          { ...fx.member, credentials: { accessToken: 'AQVnope' } },
          [],
          {},
          context(),
        ),
      );
      assert.equal(noRefresh.code, 'needs_reconnect');
    });
  });

  describe('credentials and connection', () => {
    it('verifies a fx.member and an organization', async () => {
      const profile = await fx.publisher.verifyCredentials(fx.member);
      assert.deepEqual(profile, {
        name: 'Ada Lovelace',
        avatarUrl: fx.fake.member.picture,
        platformAccountId: fx.fake.memberUrn,
      });
      const page = await fx.publisher.verifyCredentials(org());
      assert.equal(page.name, 'Analytical Engines Ltd');
      const other = await rejection(
        fx.publisher.verifyCredentials({ ...fx.member, platformAccountId: 'urn:li:person:someoneelse' }),
      );
      assert.equal(other.code, 'target_unreachable');
    });

    it('connects the fx.member and the pages they administer, one account each', async () => {
      const connector = linkedInModule.createConnector!({ ...fx.fake.env(), LINKEDIN_ORGANIZATIONS: 'true' });
      assert.equal(connector.configured, true);
      const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/linkedin/callback';
      const consent = new URL(connector.authorizeUrl({ state: 'st4te', redirectUri }));
      assert.equal(
        consent.searchParams.get('scope'),
        'openid profile w_member_social w_organization_social r_organization_admin',
      );
      const answer = await fetch(consent, { redirect: 'manual' });
      const back = new URL(answer.headers.get('location')!);
      assert.equal(back.searchParams.get('state'), 'st4te');
      const accounts = await connector.exchangeCode({
        code: back.searchParams.get('code')!,
        redirectUri,
        signal: AbortSignal.timeout(5000),
      });
      assert.deepEqual(
        accounts.map((a) => [a.platformAccountId, a.kind, a.profile.name]),
        [
          [fx.fake.memberUrn, 'Profile', 'Ada Lovelace'],
          ['urn:li:organization:2414183', 'Organization', 'Analytical Engines Ltd'],
        ],
      );
      assert.equal(typeof accounts[0]!.credentials.accessToken, 'string');
      assert.equal(typeof accounts[0]!.credentials.refreshToken, 'string');
      // The stored credentials publish.
      const result = await fx.publisher.publish(
        { message: 'Connected' },
        {
          id: 'c',
          platform: 'linkedin',
          platformAccountId: accounts[1]!.platformAccountId,
          credentials: accounts[1]!.credentials,
        },
        [],
        {},
        context(),
      );
      assert.match(result.platformPostId, /^urn:li:share:/);
    });

    it('asks only fx.member scopes by default and is unconfigured without a client id', () => {
      const connector = linkedInModule.createConnector!(fx.fake.env());
      const url = new URL(connector.authorizeUrl({ state: 's', redirectUri: 'http://x.test/cb' }));
      assert.equal(url.searchParams.get('scope'), 'openid profile w_member_social');
      assert.equal(linkedInModule.createConnector!({}).configured, false);
    });

    it('is registered and refuses malformed settings at start', () => {
      assert.equal(PublisherRegistry.fromEnv({}).get('linkedin')?.displayName, 'LinkedIn');
      assert.throws(() => linkedInModule.create({ LINKEDIN_API_URL: 'nope' }), /LINKEDIN_API_URL/);
      assert.throws(() => linkedInModule.create({ LINKEDIN_VERSION: '2025' }), /LINKEDIN_VERSION/);
    });
  });
});
