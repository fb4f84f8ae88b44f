import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createXConnector } from '../../../src/platforms/x/connector.ts';
import { type FakeX, startFakeX } from '../../fakes/x.ts';
import { rejection } from '../../support/platform-testing.ts';
import { publishContext, xAccount, xPublisher, xTestConfig } from './setup.ts';

let fake: FakeX;
let publisher: ReturnType<typeof xPublisher>;
const tokenRequests = () => fake.requestsTo('POST', /^\/2\/oauth2\/token$/);
const unique = (text: string) => `${text} ${Math.random().toString(36).slice(2)}`;

before(async () => {
  fake = await startFakeX();
  publisher = xPublisher(fake);
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.server.requests.length = 0;
});

describe('X token refresh', () => {
  it('uses a valid token without refreshing', async () => {
    const refreshed: unknown[] = [];
    await publisher.publish(
      { message: unique('a') },
      xAccount(fake),
      [],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.equal(tokenRequests().length, 0);
    assert.equal(refreshed.length, 0);
  });

  it('refreshes an expired token first and hands back the rotated refresh token', async () => {
    const stale = fake.credentials({ expiresInSeconds: 10 });
    const refreshed: Record<string, unknown>[] = [];
    await publisher.publish(
      { message: unique('b') },
      xAccount(fake, stale),
      [],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.equal(tokenRequests().length, 1);
    const request = tokenRequests()[0]!;
    assert.deepEqual(request.body, { grant_type: 'refresh_token', refresh_token: stale.refreshToken });
    assert.equal(
      request.headers.authorization,
      `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString('base64')}`,
    );
    assert.equal(refreshed.length, 1);
    const next = refreshed[0]!;
    assert.notEqual(next.accessToken, stale.accessToken);
    assert.notEqual(next.refreshToken, stale.refreshToken, 'X rotates the refresh token');
    assert.equal(next.clientId, fake.clientId);
    assert.ok(Date.parse(String(next.expiresAt)) > Date.now() + 7_000_000);
    assert.equal(
      fake.requestsTo('POST', /^\/2\/tweets$/)[0]!.headers.authorization,
      `Bearer ${next.accessToken}`,
    );
    // The spent refresh token is dead at X; the new one works.
    const again = await publisher.verifyCredentials(
      xAccount(fake, { ...next, expiresAt: new Date(Date.now() - 1000).toISOString() }),
    );
    assert.equal(again.platformAccountId, fake.user.id);
  });

  it('refreshes once on a 401 and posts', async () => {
    const credentials = fake.credentials();
    fake.invalidateAccessTokens();
    const refreshed: Record<string, unknown>[] = [];
    const result = await publisher.publish(
      { message: unique('c') },
      xAccount(fake, credentials),
      [],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.ok(result.platformPostId);
    assert.equal(tokenRequests().length, 1);
    assert.deepEqual(
      fake.requestsTo('POST', /^\/2\/tweets$/).map((r) => r.headers.authorization),
      [`Bearer ${credentials.accessToken}`, `Bearer ${refreshed[0]!.accessToken}`],
    );
  });

  it('serializes concurrent refreshes of one account: one token request, every publish succeeds', async () => {
    const stale = fake.credentials({ expiresInSeconds: 10 });
    const stored: Record<string, unknown>[] = [];
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        publisher.publish(
          { message: unique(`parallel ${i}`) },
          xAccount(fake, stale),
          [],
          {},
          publishContext({ onCredentialsRefreshed: (c) => void stored.push(c) }),
        ),
      ),
    );
    assert.equal(results.length, 5);
    assert.equal(tokenRequests().length, 1, 'the rotated refresh token is spent once');
    assert.equal(new Set(stored.map((c) => c.refreshToken)).size, 1, 'everyone stores the same rotation');
  });

  it('uses the refresh token a concurrent refresh already rotated (several publisher instances share nothing else)', async () => {
    const stale = fake.credentials({ expiresInSeconds: 10 });
    await publisher.verifyCredentials(xAccount(fake, stale));
    // A later publish still holding the old, spent refresh token: no second grant, no lost connection.
    const profile = await publisher.verifyCredentials(xAccount(fake, stale));
    assert.equal(profile.platformAccountId, fake.user.id);
    assert.equal(tokenRequests().length, 1);
  });

  it('a revoked grant needs a reconnect and is not retried', async () => {
    const credentials = fake.credentials({ expiresInSeconds: 10 });
    fake.revokeRefreshTokens();
    const error = await rejection(
      publisher.publish({ message: unique('d') }, xAccount(fake, credentials), [], {}, publishContext()),
    );
    assert.equal(error.code, 'needs_reconnect');
    assert.equal(error.retryable, false);
    assert.match(error.message, /reconnect/);
  });

  it('without a refresh token a refused token is credentials_invalid', async () => {
    const { refreshToken: _, ...credentials } = fake.credentials();
    fake.invalidateAccessTokens();
    const error = await rejection(
      publisher.publish({ message: unique('e') }, xAccount(fake, credentials), [], {}, publishContext()),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(tokenRequests().length, 0);
  });

  it('a wrong client secret is credentials_invalid and never echoed', async () => {
    const credentials = { ...fake.credentials({ expiresInSeconds: 10 }), clientSecret: 'wrong-secret' };
    const error = await rejection(publisher.verifyCredentials(xAccount(fake, credentials)));
    assert.equal(error.code, 'credentials_invalid');
    assert.ok(!JSON.stringify({ ...error.toJSON(), message: error.message }).includes('wrong-secret'));
  });

  it('falls back to X_CLIENT_ID / X_CLIENT_SECRET when the credentials name no client', async () => {
    const credentials = fake.credentials({ expiresInSeconds: 10, withClient: false });
    const profile = await publisher.verifyCredentials(xAccount(fake, credentials));
    assert.equal(profile.platformAccountId, fake.user.id);
    assert.equal(tokenRequests().length, 1);
  });
});

describe('X OAuth 2.0 connect (PKCE)', () => {
  const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/x/callback';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');

  it('builds the consent URL with the scopes, state and S256 challenge', () => {
    const connector = createXConnector(xTestConfig(fake));
    assert.equal(connector.configured, true);
    assert.equal(connector.pkce, true);
    const url = new URL(connector.authorizeUrl({ state: 's1', redirectUri, codeChallenge: challenge }));
    assert.equal(url.origin + url.pathname, fake.authorizeUrl);
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      response_type: 'code',
      client_id: fake.clientId,
      redirect_uri: redirectUri,
      scope: 'tweet.read tweet.write users.read media.write offline.access',
      state: 's1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
  });

  it('exchanges the code for rotating tokens and lists the account', async () => {
    const connector = createXConnector(xTestConfig(fake));
    const consent = await fetch(
      connector.authorizeUrl({ state: 's2', redirectUri, codeChallenge: challenge }),
      {
        redirect: 'manual',
      },
    );
    const back = new URL(consent.headers.get('location')!);
    assert.equal(back.searchParams.get('state'), 's2');
    const accounts = await connector.exchangeCode({
      code: back.searchParams.get('code')!,
      redirectUri,
      codeVerifier: verifier,
      signal: AbortSignal.timeout(5_000),
    });
    assert.equal(accounts.length, 1);
    const [account] = accounts;
    assert.equal(account!.platformAccountId, fake.user.id);
    assert.equal(account!.profile.username, fake.user.username);
    assert.equal(typeof account!.credentials.refreshToken, 'string');
    // The stored credentials publish.
    const result = await publisher.publish(
      { message: unique('connected') },
      {
        id: 'x9',
        platform: 'x',
        platformAccountId: account!.platformAccountId,
        credentials: account!.credentials,
      },
      [],
      {},
      publishContext(),
    );
    assert.ok(result.platformPostId);
  });

  it('a first token already inside the refresh margin is refreshed by the lookup, and the rotated pair returned', async () => {
    const connector = createXConnector(xTestConfig(fake));
    fake.accessTokenTtlSeconds = 30;
    let accounts: Awaited<ReturnType<typeof connector.exchangeCode>>;
    try {
      const consent = await fetch(
        connector.authorizeUrl({ state: 's2b', redirectUri, codeChallenge: challenge }),
        { redirect: 'manual' },
      );
      accounts = await connector.exchangeCode({
        code: new URL(consent.headers.get('location')!).searchParams.get('code')!,
        redirectUri,
        codeVerifier: verifier,
        signal: AbortSignal.timeout(5_000),
      });
    } finally {
      fake.accessTokenTtlSeconds = 7200;
    }
    assert.equal(
      tokenRequests().filter((r) => (r.body as { grant_type?: string }).grant_type === 'refresh_token')
        .length,
      1,
    );
    const credentials = accounts[0]!.credentials;
    // The returned refresh token is the live one: using it works (a spent one would be refused).
    const again = await publisher.verifyCredentials({
      id: 'x10',
      platform: 'x',
      platformAccountId: fake.user.id,
      credentials: { ...credentials, expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    assert.equal(again.platformAccountId, fake.user.id);
  });

  it('refuses a wrong code verifier as a failed sign-in', async () => {
    const connector = createXConnector(xTestConfig(fake));
    const consent = await fetch(
      connector.authorizeUrl({ state: 's3', redirectUri, codeChallenge: challenge }),
      {
        redirect: 'manual',
      },
    );
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    const error = await rejection(
      connector.exchangeCode({
        code,
        redirectUri,
        codeVerifier: 'not-the-verifier',
        signal: AbortSignal.timeout(5_000),
      }),
    );
    assert.equal(error.code, 'credentials_invalid');
  });

  it('works for public clients (no secret: client_id in the form)', async () => {
    const publicFake = await startFakeX({ clientSecret: null });
    try {
      const config = xTestConfig(publicFake);
      assert.equal(config.clientSecret, undefined);
      const connector = createXConnector(config);
      const consent = await fetch(
        connector.authorizeUrl({ state: 's4', redirectUri, codeChallenge: challenge }),
        {
          redirect: 'manual',
        },
      );
      const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
      const [account] = await connector.exchangeCode({
        code,
        redirectUri,
        codeVerifier: verifier,
        signal: AbortSignal.timeout(5_000),
      });
      const request = publicFake.requestsTo('POST', /^\/2\/oauth2\/token$/)[0]!;
      assert.equal(request.headers.authorization, undefined);
      assert.equal((request.body as Record<string, string>).client_id, publicFake.clientId);
      assert.equal(account!.platformAccountId, publicFake.user.id);
    } finally {
      await publicFake.close();
    }
  });

  it('is not configured without X_CLIENT_ID', () => {
    const connector = createXConnector({ ...xTestConfig(fake), clientId: undefined });
    assert.equal(connector.configured, false);
  });
});
