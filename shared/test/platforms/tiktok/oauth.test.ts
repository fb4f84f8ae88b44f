import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createTikTokConnector,
  createTikTokPublisher,
  tiktokModule,
} from '../../../src/platforms/tiktok/index.ts';
import { rejection } from '../../support/platform-testing.ts';
import { context, tiktokFixture } from './setup.ts';

const fx = tiktokFixture();
const redirectUri = 'https://postwave.example/api/v1/accounts/connect/tiktok/callback';
const signal = () => AbortSignal.timeout(5000);

async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  assert.equal(response.status, 302);
  return new URL(response.headers.get('location')!);
}

describe('TikTok sign-in (OAuth v2)', () => {
  it('asks for user.info.basic, video.publish and video.upload with the client key', () => {
    const connector = createTikTokConnector(fx.config);
    assert.equal(connector.configured, true);
    assert.equal(connector.pkce, false);
    const url = new URL(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(url.origin + url.pathname, `${fx.fake.url}/v2/auth/authorize/`);
    assert.equal(url.searchParams.get('client_key'), fx.fake.clientKey);
    assert.equal(url.searchParams.get('scope'), 'user.info.basic,video.publish,video.upload');
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('redirect_uri'), redirectUri);
    assert.equal(url.searchParams.get('state'), 'st');
    assert.equal(tiktokModule.createConnector!({}).configured, false);
  });

  it('exchanges the code for the creator, with 24 h / 365 d tokens that post', async () => {
    const connector = createTikTokConnector(fx.config);
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    assert.equal(back.searchParams.get('state'), 'st');
    const [account, ...others] = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      signal: signal(),
    });
    assert.equal(others.length, 0);
    assert.equal(account!.platformAccountId, fx.fake.creator.openId);
    assert.deepEqual(account!.profile, {
      name: 'Fake Creator',
      username: 'fakecreator',
      avatarUrl: fx.fake.creator.avatarUrl,
      platformAccountId: fx.fake.creator.openId,
    });
    const credentials = account!.credentials;
    assert.match(String(credentials.accessToken), /^act\./);
    assert.match(String(credentials.refreshToken), /^rft\./);
    assert.ok(Date.parse(String(credentials.expiresAt)) < Date.now() + 24 * 3_600_000 + 5000);
    assert.ok(Date.parse(String(credentials.refreshExpiresAt)) > Date.now() + 364 * 86_400_000);
    const token = fx.fake.calls('/v2/oauth/token/')[0]!;
    assert.equal((token.body as Record<string, string>).client_secret, fx.fake.clientSecret);
    assert.equal((token.body as Record<string, string>).grant_type, 'authorization_code');
    const posted = await createTikTokPublisher(fx.config).publish(
      { message: 'Connected' },
      { id: 'a', platform: 'tiktok', platformAccountId: account!.platformAccountId, credentials },
      [fx.mp4()],
      { privacyLevel: 'SELF_ONLY' },
      context(),
    );
    assert.equal(posted.platformPostId, fx.fake.posts.at(-1)!.publishId);
  });

  it('refuses a used code as a failed sign-in, and a consent without every scope', async () => {
    const connector = createTikTokConnector(fx.config);
    const back = await consent(connector.authorizeUrl({ state: 'st', redirectUri }));
    const code = back.searchParams.get('code')!;
    await connector.exchangeCode({ code, redirectUri, signal: signal() });
    const used = await rejection(connector.exchangeCode({ code, redirectUri, signal: signal() }));
    assert.equal(used.code, 'credentials_invalid');
    const partial = new URL(connector.authorizeUrl({ state: 'st', redirectUri }));
    partial.searchParams.set('scope', 'user.info.basic');
    const narrowed = await consent(partial.toString());
    const missing = await rejection(
      connector.exchangeCode({ code: narrowed.searchParams.get('code')!, redirectUri, signal: signal() }),
    );
    assert.equal(missing.code, 'credentials_invalid');
    assert.match(missing.message, /video\.publish/);
  });

  it('sends a denied consent back with an error', async () => {
    fx.fake.consent = 'deny';
    try {
      const back = await consent(createTikTokConnector(fx.config).authorizeUrl({ state: 'st', redirectUri }));
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('state'), 'st');
    } finally {
      fx.fake.consent = 'approve';
    }
  });
});
