import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import {
  castIdem,
  FarcasterPublisher,
  farcasterConfigFromEnv,
  farcasterManifest,
} from '../../../src/platforms/farcaster/index.ts';
import { validateFarcasterCast } from '../../../src/platforms/farcaster/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeFarcaster, startFakeFarcaster } from '../../fakes/farcaster.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const approved = '19d0c5fd-9b33-4a48-a0e2-bc7b0555baec';
const pending = '2a3b4c5d-0000-4000-8000-000000000001';
const revoked = '2a3b4c5d-0000-4000-8000-000000000002';
const proSigner = '2a3b4c5d-0000-4000-8000-000000000003';

const fx = useFixture(
  async () => {
    const fake = await startFakeFarcaster({
      users: [
        { fid: 1042, username: 'alice', displayName: 'Alice' },
        { fid: 7, username: 'pro', pro: true },
      ],
      signers: {
        [approved]: { fid: 1042 },
        [pending]: { fid: 1042, status: 'pending_approval' },
        [revoked]: { fid: 1042, status: 'revoked' },
        [proSigner]: { fid: 7 },
      },
    });
    return { fake, publisher: new FarcasterPublisher(farcasterConfigFromEnv(fake.env())) };
  },
  {
    stop: (f: { fake: FakeFarcaster }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.casts.length = 0;
    },
  },
);

const account = (signerUuid = approved): PlatformAccount => ({
  id: 'fc-1',
  platform: 'farcaster',
  platformAccountId: '1042',
  credentials: { signerUuid },
});
const context = testPublishContext;
const png = (url = 'https://media.example.com/media/a.png') =>
  memoryMedia(new Uint8Array(samplePng()), { filename: 'a.png', contentType: 'image/png', url });
const info = (url: string): MediaInfo => ({
  key: 'k',
  filename: 'a.png',
  contentType: 'image/png',
  size: 10,
  kind: 'image',
  url,
});

describe('Farcaster validation and counting', () => {
  it('counts UTF-8 bytes against 320, or 1024 with longCast, as the counter does', () => {
    const codes = (message: string, options = {}) =>
      validateFarcasterCast({ message }, [], options).errors.map((e) => e.code);
    assert.deepEqual(codes('é'.repeat(160)), []);
    assert.deepEqual(codes('é'.repeat(161)), ['text_too_long']);
    assert.deepEqual(codes('é'.repeat(161), { longCast: true }), []);
    assert.deepEqual(codes('a'.repeat(1025), { longCast: true }), ['text_too_long']);
    assert.deepEqual(farcasterManifest.text.count({ message: '😀', hasMedia: false, options: {} }), {
      used: 4,
      limit: 320,
      unit: 'bytes',
    });
    assert.equal(
      farcasterManifest.text.count({ message: '', hasMedia: false, options: { longCast: 'true' } }).limit,
      1024,
    );
  });

  it('takes at most 2 embeds of at most 256 bytes, and warns when our media URL is not public', () => {
    const outcome = (media: MediaInfo[]) => validateFarcasterCast({ message: 'x' }, media, {});
    assert.deepEqual(outcome([info('https://m.example/1'), info('https://m.example/2')]).errors, []);
    assert.deepEqual(
      outcome([
        info('https://m.example/1'),
        info('https://m.example/2'),
        info('https://m.example/3'),
      ]).errors.map((e) => e.code),
      ['too_many_media'],
    );
    assert.deepEqual(
      outcome([info(`https://m.example/${'a'.repeat(250)}`)]).errors.map((e) => e.code),
      ['media_url_too_long'],
    );
    assert.deepEqual(
      outcome([info('http://127.0.0.1:3000/media/a.png')]).warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
  });

  it('refuses every cast while the server has no NEYNAR_API_KEY, before anything is sent', async () => {
    // Without the operator's key no cast can go; found only at publish, a post's other targets
    // would already be out (contract B: the whole post is validated first).
    const unconfigured = new FarcasterPublisher(farcasterConfigFromEnv({ FARCASTER_API_URL: fx.fake.url }));
    const outcome = await unconfigured.validate({ message: 'Hello' }, account(), [], {});
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['platform_not_configured'],
    );
    assert.match(outcome.errors[0]!.message, /NEYNAR_API_KEY/);
    assert.deepEqual((await fx.publisher.validate({ message: 'Hello' }, account(), [], {})).errors, []);
    assert.equal(fx.fake.server.requests.length, 0);
  });

  it('refuses a malformed channel id and unknown options', () => {
    assert.deepEqual(fx.publisher.optionsSchema.parse({ channelId: '/Dev' }), { channelId: 'dev' });
    assert.equal(fx.publisher.optionsSchema.safeParse({ channelId: 'no spaces' }).success, false);
    assert.equal(fx.publisher.optionsSchema.safeParse({ channel: 'dev' }).success, false);
  });
});

describe('Farcaster publishing through Neynar', () => {
  it('casts with the signer, embeds from our media URLs, the channel and a 16-character idem', async () => {
    const ctx = context('fc-1');
    const result = await fx.publisher.publish(
      { message: 'Hello Farcaster' },
      account(),
      [png(), png('https://media.example.com/media/b.png')],
      { channelId: 'dev' },
      ctx,
    );
    const [request] = fx.fake.calls('/v2/farcaster/cast');
    assert.equal(request!.headers['x-api-key'], fx.fake.apiKey);
    assert.deepEqual(request!.body, {
      signer_uuid: approved,
      text: 'Hello Farcaster',
      embeds: [
        { url: 'https://media.example.com/media/a.png' },
        { url: 'https://media.example.com/media/b.png' },
      ],
      channel_id: 'dev',
      idem: castIdem(ctx.idempotencyKey),
    });
    assert.equal(castIdem(ctx.idempotencyKey).length, 16);
    const cast = fx.fake.casts[0]!;
    assert.deepEqual(result, {
      platformPostId: cast.hash,
      url: `https://farcaster.xyz/alice/${cast.hash.slice(0, 10)}`,
    });
  });

  it('a resend of the same intent carries the same idem: Neynar answers the first cast', async () => {
    const ctx = context('fc-1');
    fx.fake.server.inject({ path: /\/cast$/, status: 502, text: 'Bad gateway' });
    const lost = await rejection(fx.publisher.publish({ message: 'Once' }, account(), [], {}, ctx));
    assert.deepEqual([lost.code, lost.retryable], ['platform_unavailable', true]);
    const first = await fx.publisher.publish({ message: 'Once' }, account(), [], {}, ctx);
    const again = await fx.publisher.publish({ message: 'Once' }, account(), [], {}, ctx);
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.casts.length, 1);
    const other = await fx.publisher.publish({ message: 'Once' }, account(), [], {}, context('fc-1'));
    assert.notEqual(other.platformPostId, first.platformPostId);
  });

  it('a long cast goes for a Pro account', async () => {
    await fx.publisher.publish(
      { message: 'a'.repeat(900) },
      { ...account(proSigner), platformAccountId: '7' },
      [],
      { longCast: true },
      context('fc-1'),
    );
    assert.equal(fx.fake.casts[0]!.text.length, 900);
  });

  it('maps Neynar errors: unapproved signer, unknown channel, bad key, rate limit', async () => {
    const notApproved = await rejection(
      fx.publisher.publish({ message: 'x' }, account(pending), [], {}, context('fc-1')),
    );
    assert.deepEqual([notApproved.code, notApproved.retryable], ['needs_reconnect', false]);
    const channel = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [], { channelId: 'nowhere' }, context('fc-1')),
    );
    assert.equal(channel.code, 'target_unreachable');
    fx.fake.rateLimit({ resetSeconds: 60 });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [], {}, context('fc-1')),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.ok(
      limited.retryAfterMs! > 50_000 && limited.retryAfterMs! <= 60_000,
      String(limited.retryAfterMs),
    );
    const badKey = new FarcasterPublisher(
      farcasterConfigFromEnv({ ...fx.fake.env(), NEYNAR_API_KEY: 'wrong' }),
    );
    const refused = await rejection(badKey.publish({ message: 'x' }, account(), [], {}, context('fc-1')));
    assert.deepEqual([refused.code, refused.retryable], ['platform_unavailable', false]);
    const tooLong = await rejection(
      fx.publisher.publish({ message: 'a'.repeat(400) }, account(), [], { longCast: true }, context('fc-1')),
    );
    assert.equal(tooLong.code, 'content_rejected');
  });

  it('verifies the signer (approved, with its fid) and reads the profile', async () => {
    assert.deepEqual(await fx.publisher.verifyCredentials(account()), {
      name: 'Alice',
      username: '@alice',
      avatarUrl: 'https://imagedelivery.example/alice.png',
      platformAccountId: '1042',
    });
    assert.equal(fx.fake.calls('/v2/farcaster/signer')[0]!.query.get('signer_uuid'), approved);
    // The profile is a nicety: without it the account still connects, named by its fid.
    fx.fake.server.inject({
      path: /\/user\/bulk$/,
      status: 503,
      json: { code: 'Unavailable', message: 'down' },
    });
    assert.deepEqual(await fx.publisher.verifyCredentials(account()), {
      name: 'fid 1042',
      platformAccountId: '1042',
    });
    for (const signer of [pending, revoked, '2a3b4c5d-0000-4000-8000-00000000000f']) {
      const error = await rejection(fx.publisher.verifyCredentials(account(signer)));
      assert.equal(error.code, 'needs_reconnect', signer);
    }
  });
});
