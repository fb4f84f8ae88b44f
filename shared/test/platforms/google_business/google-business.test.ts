import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { googleBusinessConfigFromEnv } from '../../../src/platforms/google_business/config.ts';
import {
  createGoogleBusinessPublisher,
  googleBusinessManifest,
  googleBusinessModule,
} from '../../../src/platforms/google_business/index.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeGoogleBusiness, startFakeGoogleBusiness } from '../../fakes/google-business.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const context = (extra = {}) => testPublishContext('g1', extra, 10_000);
const location = (
  fake: FakeGoogleBusiness,
  id = 'accounts/1100/locations/9001',
  credentials = fake.credentials(),
): PlatformAccount => ({
  id: 'g1',
  platform: 'google_business',
  platformAccountId: id,
  credentials,
});

const fx = useFixture(
  async () => {
    const fake = await startFakeGoogleBusiness();
    const config = googleBusinessConfigFromEnv(fake.env());
    return { fake, config, publisher: createGoogleBusinessPublisher(config) };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.posts.length = 0;
      f.fake.server.requests.length = 0;
      f.fake.server.clearInjected();
      f.fake.rotateRefreshTokens = false;
    },
  },
);

const photo: MediaInfo = {
  url: 'https://media.example.test/a.png',
  filename: 'a.png',
  contentType: 'image/png',
  size: 20_000,
  kind: 'image',
} as MediaInfo;
const codes = (issues: { code: string }[]) => issues.map((i) => i.code).sort();

describe('Google Business Profile validation', () => {
  it('counts the summary in characters, 1500 at most, and takes one JPEG or PNG photo', async () => {
    assert.deepEqual(
      googleBusinessManifest.text.count({ message: 'Café 👋', hasMedia: false, options: {} }),
      {
        used: 6,
        limit: 1500,
        unit: 'characters',
      },
    );
    const account = location(fx.fake);
    const long = await fx.publisher.validate({ message: 'x'.repeat(1501) }, account, [], {});
    assert.deepEqual(codes(long.errors), ['text_too_long']);
    const media = await fx.publisher.validate(
      { message: 'x' },
      account,
      [photo, { ...photo, contentType: 'image/gif' }],
      {},
    );
    assert.deepEqual(codes(media.errors), ['media_type_unsupported', 'too_many_media']);
    const empty = await fx.publisher.validate({ message: ' ' }, account, [], {});
    assert.deepEqual(codes(empty.errors), ['text_required']);
    const loopback = await fx.publisher.validate(
      { message: 'x' },
      account,
      [{ ...photo, url: 'http://127.0.0.1/a.png' }],
      {},
    );
    assert.deepEqual(codes(loopback.warnings), ['media_url_not_public']);
  });

  it('checks an event period and a button link; warns of a button on an offer', async () => {
    const account = location(fx.fake);
    const backwards = await fx.publisher.validate({ message: 'x' }, account, [], {
      topicType: 'EVENT',
      event: { title: 'Party', start: '2026-12-02T18:00', end: '2026-12-01T18:00' },
    });
    assert.deepEqual(codes(backwards.errors), ['event_ends_before_start']);
    const noLink = await fx.publisher.validate({ message: 'x' }, account, [], {
      callToAction: { actionType: 'BOOK' },
    });
    assert.deepEqual(codes(noLink.errors), ['option_required']);
    const call = await fx.publisher.validate({ message: 'x' }, account, [], {
      callToAction: { actionType: 'CALL' },
    });
    assert.deepEqual(call.errors, []);
    const offer = await fx.publisher.validate({ message: 'x' }, account, [], {
      topicType: 'OFFER',
      event: { title: 'Sale', start: '2026-12-01', end: '2026-12-24' },
      callToAction: { actionType: 'CALL' },
    });
    assert.deepEqual(codes(offer.warnings), ['call_to_action_ignored']);
  });

  it('refuses an account id that is not accounts/{a}/locations/{l} before anything is sent', async () => {
    // Contract C: the target is `accounts/{a}/locations/{l}`; a bare location would pass
    // validation and then fail at publish, after the post's other targets went out.
    for (const id of ['locations/9001', 'accounts/1100', 'accounts/1100/locations/9001/extra']) {
      const outcome = await fx.publisher.validate({ message: 'x' }, location(fx.fake, id), [], {});
      assert.deepEqual(
        outcome.errors.map((e) => [e.code, e.path]),
        [['account_invalid', 'platformAccountId']],
        id,
      );
    }
  });
});

describe('Google Business Profile publishing', () => {
  it('creates an update with a photo by URL and a button, refreshing the token first', async () => {
    const stored: Record<string, unknown>[] = [];
    const media = memoryMedia(new Uint8Array(samplePng()), { filename: 'p.png', contentType: 'image/png' });
    const result = await fx.publisher.publish(
      { message: 'Fresh bread today' },
      location(fx.fake),
      [media],
      { callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' } },
      context({ onCredentialsRefreshed: (c: Record<string, unknown>) => void stored.push(c) }),
    );
    const [post] = fx.fake.posts;
    assert.equal(post?.location, 'accounts/1100/locations/9001');
    assert.deepEqual(post?.body, {
      topicType: 'STANDARD',
      summary: 'Fresh bread today',
      media: [{ mediaFormat: 'PHOTO', sourceUrl: media.url }],
      callToAction: { actionType: 'ORDER', url: 'https://bakery.example/order' },
    });
    assert.equal(result.platformPostId, post?.name);
    assert.match(result.url!, /^https:\/\/local\.google\.com\/place\?id=9001/);
    assert.equal(stored.length, 1, 'the refreshed token is handed over');
  });

  it('creates an event and an offer with their schedule (an instant in GOOGLE_BUSINESS_TIME_ZONE)', async () => {
    const berlin = createGoogleBusinessPublisher(
      googleBusinessConfigFromEnv({ ...fx.fake.env(), GOOGLE_BUSINESS_TIME_ZONE: 'Europe/Berlin' }),
    );
    await berlin.publish(
      { message: 'Come by' },
      location(fx.fake),
      [],
      {
        topicType: 'EVENT',
        event: { title: 'Tasting', start: '2026-12-01T17:00:00.000Z', end: '2026-12-01T19:30' },
      },
      context(),
    );
    assert.deepEqual(fx.fake.posts[0]?.body.event, {
      title: 'Tasting',
      schedule: {
        startDate: { year: 2026, month: 12, day: 1 },
        startTime: { hours: 18, minutes: 0, seconds: 0, nanos: 0 },
        endDate: { year: 2026, month: 12, day: 1 },
        endTime: { hours: 19, minutes: 30, seconds: 0, nanos: 0 },
      },
    });
    await fx.publisher.publish(
      { message: '20% off' },
      location(fx.fake),
      [],
      {
        topicType: 'OFFER',
        event: { title: 'Winter sale', start: '2026-12-01', end: '2026-12-24' },
        offer: { couponCode: 'BREAD20', redeemUrl: 'https://bakery.example/sale', terms: 'One per customer' },
      },
      context(),
    );
    const offer = fx.fake.posts[1]!.body;
    assert.equal(offer.topicType, 'OFFER');
    assert.deepEqual(offer.offer, {
      couponCode: 'BREAD20',
      redeemOnlineUrl: 'https://bakery.example/sale',
      termsConditions: 'One per customer',
    });
    assert.deepEqual((offer.event as { schedule: unknown }).schedule, {
      startDate: { year: 2026, month: 12, day: 1 },
      endDate: { year: 2026, month: 12, day: 24 },
    });
  });

  it("maps Google's errors: invalid argument, unknown location, quota, outage, missing scope", async () => {
    fx.fake.server.inject({
      path: /localPosts$/,
      status: 400,
      json: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'Request contains an invalid argument.',
          details: [
            {
              '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError',
              errorDetails: [{ field: 'summary', message: 'Phone numbers are not allowed' }],
            },
          ],
        },
      },
    });
    const invalid = await rejection(
      fx.publisher.publish({ message: 'Call 555' }, location(fx.fake), [], {}, context()),
    );
    assert.equal(invalid.code, 'content_rejected');
    assert.match(invalid.message, /Phone numbers/);
    const unknown = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        location(fx.fake, 'accounts/1100/locations/404'),
        [],
        {},
        context(),
      ),
    );
    assert.equal(unknown.code, 'target_unreachable');
    fx.fake.server.inject({
      path: /localPosts$/,
      status: 429,
      headers: { 'retry-after': '30' },
      json: { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded' } },
    });
    const quota = await rejection(
      fx.publisher.publish({ message: 'x' }, location(fx.fake), [], {}, context()),
    );
    assert.equal(quota.code, 'rate_limited');
    assert.equal(quota.retryAfterMs, 30_000);
    fx.fake.server.inject({
      path: /localPosts$/,
      status: 503,
      json: { error: { code: 503, status: 'UNAVAILABLE', message: 'x' } },
    });
    assert.equal(
      (await rejection(fx.publisher.publish({ message: 'x' }, location(fx.fake), [], {}, context()))).code,
      'platform_unavailable',
    );
    const narrow = location(fx.fake, undefined, fx.fake.credentials({ scope: 'openid' }));
    assert.equal(
      (await rejection(fx.publisher.publish({ message: 'x' }, narrow, [], {}, context()))).code,
      'needs_reconnect',
    );
  });

  it('a revoked grant is needs_reconnect; an expired access token is refreshed', async () => {
    const account = location(fx.fake);
    await fx.publisher.publish({ message: 'one' }, account, [], {}, context());
    fx.fake.expireAccessTokens();
    await fx.publisher.publish({ message: 'two' }, account, [], {}, context());
    assert.equal(fx.fake.posts.length, 2);
    fx.fake.revokeAll();
    const revoked = await rejection(fx.publisher.publish({ message: 'three' }, account, [], {}, context()));
    assert.equal(revoked.code, 'needs_reconnect');
    assert.match(revoked.message, /Business Profile/);
  });

  it('a resend after a lost answer finds the earlier post', async () => {
    const since = new Date();
    const account = location(fx.fake);
    const first = await fx.publisher.publish({ message: 'Once' }, account, [], {}, context());
    const again = await fx.publisher.publish(
      { message: 'Once' },
      account,
      [],
      {},
      context({ resumed: { since } }),
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.posts.length, 1);
  });
});

describe('Google Business Profile connect', () => {
  const redirectUri = 'https://postwave.example/api/v1/accounts/connect/google_business/callback';

  it('lists every location once, sharing the login as grantKey, with the business.manage scope', async () => {
    const connector = googleBusinessModule.createConnector!(fx.fake.env());
    assert.equal(connector.configured, true);
    const verifier = 'v'.repeat(50);
    const challenge = (await import('node:crypto')).createHash('sha256').update(verifier).digest('base64url');
    const url = new URL(connector.authorizeUrl({ state: 's', redirectUri, codeChallenge: challenge }));
    assert.equal(url.searchParams.get('scope'), 'https://www.googleapis.com/auth/business.manage');
    assert.equal(url.searchParams.get('access_type'), 'offline');
    const consent = await fetch(url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    const accounts = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      codeVerifier: verifier,
      signal: AbortSignal.timeout(5000),
    });
    assert.deepEqual(
      accounts.map((a) => [a.platformAccountId, a.profile.name, a.grantKey]),
      [
        ['accounts/1100/locations/9001', 'Corner Bakery Main St', 'accounts/1100'],
        ['accounts/2200/locations/9002', 'Corner Bakery Harbour', 'accounts/1100'],
      ],
    );
    // A service with only the older v4 lists gives the same locations.
    fx.fake.v1Served = false;
    try {
      const again = await fetch(
        new URL(connector.authorizeUrl({ state: 's', redirectUri, codeChallenge: challenge })),
        {
          redirect: 'manual',
        },
      );
      const v4 = await connector.exchangeCode({
        code: new URL(again.headers.get('location')!).searchParams.get('code')!,
        redirectUri,
        codeVerifier: verifier,
        signal: AbortSignal.timeout(5000),
      });
      assert.deepEqual(
        v4.map((a) => [a.platformAccountId, a.profile.name]),
        accounts.map((a) => [a.platformAccountId, a.profile.name]),
      );
    } finally {
      fx.fake.v1Served = true;
    }
    const profile = await fx.publisher.verifyCredentials(
      location(fx.fake, accounts[1]!.platformAccountId, accounts[1]!.credentials),
    );
    assert.equal(profile.name, 'Corner Bakery Harbour');
  });
});
