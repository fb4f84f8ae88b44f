import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import {
  createTwitchConnector,
  TwitchPublisher,
  twitchConfigFromEnv,
  validateTwitchMessage,
} from '../../../src/platforms/twitch/index.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeTwitch, startFakeTwitch } from '../../fakes/twitch.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeTwitch();
    return { fake, publisher: new TwitchPublisher(twitchConfigFromEnv(fake.env())) };
  },
  {
    stop: (f: { fake: FakeTwitch }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.messages.length = 0;
      f.fake.dropNext = undefined;
    },
  },
);

const account = (credentials: Record<string, unknown> = fx.fake.credentials()): PlatformAccount => ({
  id: 'tw-1',
  platform: 'twitch',
  platformAccountId: fx.fake.user.id,
  credentials,
});
const context = testPublishContext;

describe('Twitch validation', () => {
  it('500 characters, text required, no media', () => {
    const codes = (message: string, media: MediaInfo[] = []) =>
      validateTwitchMessage({ message }, media).errors.map((e) => e.code);
    assert.deepEqual(codes('😀'.repeat(500)), []);
    assert.deepEqual(codes('😀'.repeat(501)), ['text_too_long']);
    assert.deepEqual(codes(' '), ['text_required']);
    const image: MediaInfo = {
      key: 'k',
      filename: 'a.png',
      contentType: 'image/png',
      size: 1,
      kind: 'image',
      url: 'https://m/a',
    };
    assert.deepEqual(codes('hi', [image]), ['media_type_unsupported']);
  });
});

describe('Twitch chat messages', () => {
  it('validates the token for the sender, then sends as the broadcaster with Client-Id', async () => {
    const result = await fx.publisher.publish(
      { message: 'We are live!' },
      account(),
      [],
      {},
      context('tw-1'),
    );
    const [validate] = fx.fake.calls('/oauth2/validate');
    assert.match(String(validate!.headers.authorization), /^OAuth tw/);
    const [send] = fx.fake.calls('/helix/chat/messages');
    assert.equal(send!.headers['client-id'], fx.fake.clientId);
    assert.match(String(send!.headers.authorization), /^Bearer tw/);
    assert.deepEqual(send!.body, {
      broadcaster_id: fx.fake.user.id,
      sender_id: fx.fake.user.id,
      message: 'We are live!',
    });
    assert.deepEqual(result, {
      platformPostId: fx.fake.messages[0]!.id,
      url: 'https://www.twitch.tv/alicestreams',
    });
  });

  it('a dropped message (is_sent false) fails with Twitch’s reason', async () => {
    fx.fake.dropNext = {
      code: 'msg_rejected',
      message: 'Your message is being checked by mods and has not been sent.',
    };
    const error = await rejection(
      fx.publisher.publish({ message: 'spam?' }, account(), [], {}, context('tw-1')),
    );
    assert.deepEqual([error.code, error.retryable], ['content_rejected', false]);
    assert.match(error.message, /msg_rejected.*checked by mods/);
    fx.fake.dropNext = { code: 'msg_slowmode', message: 'This room is in slow mode.' };
    const slow = await rejection(
      fx.publisher.publish({ message: 'again' }, account(), [], {}, context('tw-1')),
    );
    assert.deepEqual([slow.code, slow.retryable], ['rate_limited', true]);
    assert.equal(fx.fake.messages.length, 0);
  });

  it('refreshes an expired token with the client secret and hands the new one back', async () => {
    const stored: Record<string, unknown>[] = [];
    const before = fx.fake.refreshes;
    await fx.publisher.publish(
      { message: 'Fresh token' },
      account(fx.fake.credentials({ expiresInSeconds: 5, withSecret: false })),
      [],
      {},
      context('tw-1', { onCredentialsRefreshed: (c) => void stored.push(c) }),
    );
    assert.equal(fx.fake.refreshes, before + 1);
    assert.equal(stored[0]!.clientId, fx.fake.clientId);
    assert.equal(stored[0]!.clientSecret, undefined, 'the secret from env is not copied into the account');
    assert.equal(fx.fake.messages.length, 1);
  });

  it('a 401 refreshes once; a revoked login is needs_reconnect; a missing scope too', async () => {
    fx.fake.server.inject({
      path: /^\/oauth2\/validate$/,
      status: 401,
      json: { status: 401, message: 'invalid access token' },
    });
    await fx.publisher.publish({ message: 'after 401' }, account(), [], {}, context('tw-1'));
    assert.equal(fx.fake.messages.length, 1);
    const scopeless = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        account(fx.fake.credentials({ scopes: ['chat:read'] })),
        [],
        {},
        context('tw-1'),
      ),
    );
    assert.equal(scopeless.code, 'needs_reconnect');
    const creds = fx.fake.credentials();
    fx.fake.revoke();
    const revoked = await rejection(
      fx.publisher.publish({ message: 'x' }, account(creds), [], {}, context('tw-1')),
    );
    assert.deepEqual([revoked.code, revoked.retryable], ['needs_reconnect', false]);
  });

  it('429 waits until Ratelimit-Reset; 5xx is retryable; too long is content_rejected', async () => {
    fx.fake.rateLimit({ resetSeconds: 20 });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [], {}, context('tw-1')),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.ok(limited.retryAfterMs! > 15_000 && limited.retryAfterMs! <= 20_000);
    fx.fake.server.inject({
      path: /^\/helix\/chat/,
      status: 503,
      json: { error: 'Service Unavailable', status: 503, message: '' },
    });
    const down = await rejection(fx.publisher.publish({ message: 'x' }, account(), [], {}, context('tw-1')));
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    const long = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(501) }, account(), [], {}, context('tw-1')),
    );
    assert.equal(long.code, 'content_rejected');
  });

  it('verifies the token owner and refuses a token of another user', async () => {
    assert.deepEqual(await fx.publisher.verifyCredentials(account()), {
      name: 'AliceStreams',
      username: 'alicestreams',
      avatarUrl: 'https://static-cdn.jtvnw.example/alicestreams.png',
      platformAccountId: fx.fake.user.id,
    });
    const other = await rejection(fx.publisher.verifyCredentials({ ...account(), platformAccountId: '42' }));
    assert.equal(other.code, 'target_unreachable');
  });
});

describe('Twitch OAuth connector', () => {
  it('asks for user:write:chat and connects the broadcaster with the client id in the credentials', async () => {
    const connector = createTwitchConnector(twitchConfigFromEnv(fx.fake.env()));
    assert.equal(connector.configured, true);
    assert.equal(createTwitchConnector(twitchConfigFromEnv({})).configured, false);
    const redirectUri = 'https://app.example/api/v1/accounts/connect/twitch/callback';
    const url = new URL(connector.authorizeUrl({ state: 's1', redirectUri }));
    assert.equal(url.searchParams.get('scope'), 'user:write:chat');
    const consent = await fetch(url, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    const [connected] = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(connected!.platformAccountId, fx.fake.user.id);
    assert.equal(connected!.profile.name, 'AliceStreams');
    assert.equal(connected!.credentials.clientId, fx.fake.clientId);
    assert.equal(connected!.credentials.clientSecret, undefined);
    assert.ok(connected!.credentials.refreshToken);
    const bad = await rejection(
      connector.exchangeCode({ code: 'nope', redirectUri, signal: AbortSignal.timeout(5000) }),
    );
    assert.equal(bad.code, 'credentials_invalid');
  });
});
