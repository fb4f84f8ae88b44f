import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { exchangeGoogleAuthorizationCode, refreshGoogleToken } from '../../../src/platforms/youtube/index.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { startFakeYouTube } from '../../fakes/youtube.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { publishContext, sampleVideo, youTubeAccount, youTubeFixture, youTubePublisher } from './setup.ts';

const policy = () => fastRetries(10_000);

const fx = youTubeFixture();
const tokenRequests = () => fx.fake.requestsTo('POST', /^\/token$/);

describe('YouTube access tokens', () => {
  it('uses a valid stored token without refreshing', async () => {
    const refreshed: unknown[] = [];
    await fx.publisher.publish(
      { message: 'T' },
      youTubeAccount(fx.fake, fx.fake.credentials({ withAccessToken: true })),
      [sampleVideo(100).file],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.equal(tokenRequests().length, 0);
    assert.deepEqual(refreshed, []);
  });

  it('refreshes a token about to expire and hands the new one back', async () => {
    const stale = fx.fake.credentials({ withAccessToken: true, expiresInSeconds: 30 });
    const refreshed: Record<string, unknown>[] = [];
    await fx.publisher.publish(
      { message: 'T' },
      youTubeAccount(fx.fake, stale),
      [sampleVideo(100).file],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.equal(tokenRequests().length, 1);
    assert.deepEqual(tokenRequests()[0]!.body, {
      grant_type: 'refresh_token',
      refresh_token: fx.fake.refreshToken,
      client_id: fx.fake.clientId,
      client_secret: fx.fake.clientSecret,
    });
    assert.equal(refreshed.length, 1);
    const [credentials] = refreshed;
    assert.notEqual(credentials!.accessToken, stale.accessToken);
    assert.equal(credentials!.refreshToken, fx.fake.refreshToken);
    assert.equal(credentials!.clientSecret, fx.fake.clientSecret);
    assert.ok(Date.parse(String(credentials!.expiresAt)) > Date.now() + 3_000_000);
    const upload = fx.fake.requestsTo('POST', /\/videos$/)[0]!;
    assert.equal(upload.headers.authorization, `Bearer ${credentials!.accessToken}`);
  });

  it('refreshes once on a 401 mid-publish, then succeeds', async () => {
    const credentials = fx.fake.credentials({ withAccessToken: true });
    fx.fake.invalidateAccessTokens();
    const refreshed: Record<string, unknown>[] = [];
    const result = await fx.publisher.publish(
      { message: 'T' },
      youTubeAccount(fx.fake, credentials),
      [sampleVideo(100).file],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.ok(result.platformPostId);
    assert.equal(tokenRequests().length, 1);
    assert.equal(refreshed.length, 1);
    assert.deepEqual(
      fx.fake.requestsTo('POST', /\/videos$/).map((r) => r.headers.authorization),
      [`Bearer ${credentials.accessToken}`, `Bearer ${refreshed[0]!.accessToken}`],
    );
  });

  it('does not loop when a fresh token is refused too', async () => {
    fx.fake.failNext({ path: /\/videos$/, status: 401, reason: 'authError', times: 2 });
    const stored = youTubeAccount(fx.fake, fx.fake.credentials({ withAccessToken: true }));
    const error = await rejection(
      withRetry(
        () => fx.publisher.publish({ message: 'T' }, stored, [sampleVideo(100).file], {}, publishContext()),
        policy(),
      ),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(tokenRequests().length, 1);
    assert.equal(fx.fake.requestsTo('POST', /\/videos$/).length, 2);
  });

  it('maps invalid_grant to needs_reconnect and does not retry', async () => {
    const revoked = await startFakeYouTube();
    try {
      revoked.revokeRefreshToken();
      const error = await rejection(
        withRetry(
          () =>
            youTubePublisher(revoked).publish(
              { message: 'T' },
              youTubeAccount(revoked),
              [sampleVideo(100).file],
              {},
              publishContext(),
            ),
          policy(),
        ),
      );
      assert.equal(error.code, 'needs_reconnect');
      assert.equal(error.retryable, false);
      assert.equal(revoked.requestsTo('POST', /^\/token$/).length, 1);
      assert.equal(revoked.requestsTo('POST', /\/videos$/).length, 0);
    } finally {
      await revoked.close();
    }
  });

  it('maps a wrong client secret to credentials_invalid without echoing secrets', async () => {
    const credentials = { ...fx.fake.credentials(), clientSecret: 'wrong-secret' };
    const error = await rejection(fx.publisher.verifyCredentials(youTubeAccount(fx.fake, credentials)));
    assert.equal(error.code, 'credentials_invalid');
    const text = JSON.stringify({ ...error.toJSON(), message: error.message });
    for (const secret of ['wrong-secret', fx.fake.refreshToken]) assert.ok(!text.includes(secret));
  });

  it('retries a token endpoint outage', async () => {
    fx.fake.server.inject({ path: /^\/token$/, status: 503, text: 'Service Unavailable' });
    const result = await withRetry(
      () =>
        fx.publisher.publish(
          { message: 'T' },
          youTubeAccount(fx.fake),
          [sampleVideo(100).file],
          {},
          publishContext(),
        ),
      policy(),
    );
    assert.ok(result.platformPostId);
    assert.equal(tokenRequests().length, 2);
  });

  it('refreshes for verifyCredentials and hands the token back', async () => {
    const refreshed: unknown[] = [];
    const profile = await fx.publisher.verifyCredentials(youTubeAccount(fx.fake), {
      signal: AbortSignal.timeout(5_000),
      onCredentialsRefreshed: (c) => void refreshed.push(c),
    });
    assert.equal(profile.platformAccountId, fx.fake.channel!.id);
    assert.equal(refreshed.length, 1);
  });

  it('needs a reconnect when the grant lacks the upload scope', async () => {
    const readOnly = await startFakeYouTube({ scopes: ['https://www.googleapis.com/auth/youtube.readonly'] });
    try {
      const error = await rejection(
        youTubePublisher(readOnly).publish(
          { message: 'T' },
          youTubeAccount(readOnly),
          [sampleVideo(100).file],
          {},
          publishContext(),
        ),
      );
      assert.equal(error.code, 'needs_reconnect');
    } finally {
      await readOnly.close();
    }
  });
});

describe('Google authorization code flow (fx.fake)', () => {
  const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/youtube/callback';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('redirects back with a code that exchanges for tokens with the right verifier', async () => {
    const consent = new URL(fx.fake.authorizationUrl);
    for (const [name, value] of Object.entries({
      client_id: fx.fake.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope:
        'https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl',
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
    })) {
      consent.searchParams.set(name, value);
    }
    const response = await fetch(consent, { redirect: 'manual' });
    assert.equal(response.status, 302);
    const back = new URL(response.headers.get('location')!);
    assert.equal(back.origin + back.pathname, redirectUri);
    assert.equal(back.searchParams.get('state'), 'xyz');
    const code = back.searchParams.get('code')!;

    const request = {
      code,
      codeVerifier: verifier,
      redirectUri,
      clientId: fx.fake.clientId,
      clientSecret: fx.fake.clientSecret,
    };
    const tokens = await exchangeGoogleAuthorizationCode(fx.fake.tokenUrl, request);
    assert.ok(tokens.accessToken && tokens.refreshToken);
    // The new refresh token works, and the code is single-use.
    const again = await refreshGoogleToken(fx.fake.tokenUrl, {
      ...request,
      refreshToken: tokens.refreshToken!,
    });
    assert.ok(again.accessToken);
    const reused = await rejection(exchangeGoogleAuthorizationCode(fx.fake.tokenUrl, request));
    assert.equal(reused.code, 'needs_reconnect');
  });

  it('refuses a wrong code verifier', async () => {
    const code = fx.fake.issueAuthorizationCode({ redirectUri, codeChallenge: challenge });
    const error = await rejection(
      exchangeGoogleAuthorizationCode(fx.fake.tokenUrl, {
        code,
        codeVerifier: randomBytes(32).toString('base64url'),
        redirectUri,
        clientId: fx.fake.clientId,
        clientSecret: fx.fake.clientSecret,
      }),
    );
    assert.match(error.message, /invalid_grant/);
  });

  it('redirects with access_denied when the user declines', async () => {
    fx.fake.consent = 'deny';
    try {
      const consent = new URL(fx.fake.authorizationUrl);
      consent.search = new URLSearchParams({
        client_id: fx.fake.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'https://www.googleapis.com/auth/youtube.upload',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }).toString();
      const response = await fetch(consent, { redirect: 'manual' });
      assert.equal(new URL(response.headers.get('location')!).searchParams.get('error'), 'access_denied');
    } finally {
      fx.fake.consent = 'approve';
    }
  });
});
