import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { PublisherRegistry, platformModules } from '../../../src/platforms/registry.ts';
import { threadsModule } from '../../../src/platforms/threads/index.ts';
import { createThreadsConnector } from '../../../src/platforms/threads/oauth.ts';
import { type FakeThreads, startFakeThreads } from '../../fakes/threads.ts';
import { rejection } from '../../support/platform-testing.ts';
import { publishContext, threadsAccount, threadsPublisher, threadsTestConfig } from './setup.ts';

let fake: FakeThreads;
before(async () => {
  fake = await startFakeThreads();
});
after(() => fake.close());
beforeEach(() => {
  fake.server.requests.length = 0;
});
const day = 86_400_000;

describe('Threads long-lived tokens', () => {
  it('uses a token far from expiry as is', async () => {
    const refreshed: unknown[] = [];
    await threadsPublisher(fake).publish(
      { message: 'a' },
      threadsAccount(fake, fake.credentials({ withExpiry: true, ageMs: 2 * day })),
      [],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    assert.equal(fake.requestsTo('GET', /^\/refresh_access_token$/).length, 0);
    assert.equal(refreshed.length, 0);
  });

  it('refreshes (th_refresh_token) before the 60 days end and hands the new token back', async () => {
    const credentials = fake.credentials({ withExpiry: true, expiresInMs: 3 * day, ageMs: 57 * day });
    const refreshed: Record<string, unknown>[] = [];
    await threadsPublisher(fake).publish(
      { message: 'b' },
      threadsAccount(fake, credentials),
      [],
      {},
      publishContext({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    const refresh = fake.requestsTo('GET', /^\/refresh_access_token$/)[0]!;
    assert.equal(refresh.query.get('grant_type'), 'th_refresh_token');
    assert.equal(refresh.query.get('access_token'), credentials.accessToken);
    assert.equal(refreshed.length, 1);
    assert.notEqual(refreshed[0]!.accessToken, credentials.accessToken);
    assert.ok(Date.parse(String(refreshed[0]!.expiresAt)) > Date.now() + 59 * day);
    assert.equal(
      fake.requestsTo('POST', /\/threads$/)[0]!.query.get('access_token'),
      refreshed[0]!.accessToken,
    );
  });

  it('keeps publishing with a still-valid token when the refresh is refused', async () => {
    // Younger than 24 hours: Threads refuses the refresh, the token itself still works.
    const credentials = fake.credentials({ withExpiry: true, expiresInMs: 2 * day, ageMs: 0 });
    const result = await threadsPublisher(fake).publish(
      { message: 'c' },
      threadsAccount(fake, credentials),
      [],
      {},
      publishContext(),
    );
    assert.ok(result.platformPostId);
  });

  it('an expired or revoked token needs a reconnect', async () => {
    const credentials = fake.credentials();
    fake.revokeTokens();
    const error = await rejection(
      threadsPublisher(fake).publish(
        { message: 'd' },
        threadsAccount(fake, credentials),
        [],
        {},
        publishContext(),
      ),
    );
    assert.equal(error.code, 'needs_reconnect');
    assert.equal(error.retryable, false);
  });

  it('verifies credentials through /me', async () => {
    const profile = await threadsPublisher(fake).verifyCredentials(threadsAccount(fake));
    assert.deepEqual(profile, {
      name: fake.user.name,
      username: fake.user.username,
      avatarUrl: fake.user.pictureUrl,
      platformAccountId: fake.user.id,
    });
  });
});

describe('Threads connect (OAuth)', () => {
  const redirectUri = 'http://127.0.0.1:3000/api/v1/accounts/connect/threads/callback';

  it('builds the consent URL with threads_basic,threads_content_publish,threads_manage_insights and no PKCE', () => {
    const connector = createThreadsConnector(threadsTestConfig(fake));
    assert.equal(connector.configured, true);
    assert.equal(connector.pkce, false);
    const url = new URL(connector.authorizeUrl({ state: 's1', redirectUri }));
    assert.equal(url.origin + url.pathname, fake.authorizeUrl);
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      client_id: fake.appId,
      redirect_uri: redirectUri,
      scope: 'threads_basic,threads_content_publish,threads_manage_insights',
      response_type: 'code',
      state: 's1',
    });
  });

  it('exchanges the code for a short-lived, then a long-lived token, and lists the profile', async () => {
    const connector = createThreadsConnector(threadsTestConfig(fake));
    const consent = await fetch(connector.authorizeUrl({ state: 's2', redirectUri }), { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    assert.equal(back.hash, '#_');
    const [account, ...rest] = await connector.exchangeCode({
      code: `${back.searchParams.get('code')!}#_`,
      redirectUri,
      signal: AbortSignal.timeout(5_000),
    });
    assert.equal(rest.length, 0);
    assert.equal(account!.platformAccountId, fake.user.id);
    assert.equal(account!.profile.username, fake.user.username);
    assert.ok(Date.parse(String(account!.credentials.expiresAt)) > Date.now() + 59 * day);
    const exchange = fake.requestsTo('GET', /^\/access_token$/)[0]!;
    assert.equal(exchange.query.get('grant_type'), 'th_exchange_token');
    const result = await threadsPublisher(fake).publish(
      { message: 'connected' },
      {
        id: 'th9',
        platform: 'threads',
        platformAccountId: account!.platformAccountId,
        credentials: account!.credentials,
      },
      [],
      {},
      publishContext(),
    );
    assert.ok(result.platformPostId);
  });

  it('refuses a used code as a failed sign-in', async () => {
    const connector = createThreadsConnector(threadsTestConfig(fake));
    const consent = await fetch(connector.authorizeUrl({ state: 's3', redirectUri }), { redirect: 'manual' });
    const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
    await connector.exchangeCode({ code, redirectUri, signal: AbortSignal.timeout(5_000) });
    const error = await rejection(
      connector.exchangeCode({ code, redirectUri, signal: AbortSignal.timeout(5_000) }),
    );
    assert.equal(error.code, 'credentials_invalid');
  });
});

describe('Threads module', () => {
  it('is registered once with a manifest and connector', () => {
    assert.equal(platformModules.filter((m) => m.id === 'threads').length, 1);
    assert.equal(PublisherRegistry.fromEnv({}).get('threads')?.displayName, 'Threads');
    assert.equal(threadsModule.manifest?.connect.method, 'oauth');
    assert.equal(threadsModule.createConnector?.({}).configured, false);
  });
  it('links to its docs page and draws one inline SVG path', async () => {
    const { existsSync } = await import('node:fs');
    const manifest = threadsModule.manifest!;
    assert.ok(existsSync(new URL(`../../../../${manifest.docs}`, import.meta.url)), manifest.docs);
    assert.match(manifest.icon, /^<svg [^>]*viewBox="0 0 24 24"[^>]*><path d="[-0-9.,a-zA-Z ]+"\/><\/svg>$/);
  });

  it('refuses malformed settings at start', () => {
    assert.throws(() => threadsModule.create({ THREADS_API_URL: 'nope' }), /THREADS_API_URL/);
    assert.throws(
      () => threadsModule.create({ THREADS_OAUTH_AUTHORIZE_URL: 'x:' }),
      /THREADS_OAUTH_AUTHORIZE_URL/,
    );
  });
});
