import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeYouTube, sampleMp4, startFakeYouTube } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp, userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

for (const backend of backends()) {
  describe(`YouTube account connection (${backend})`, () => {
    let youtube: FakeYouTube;
    let app: RunningApp;
    before(async () => {
      youtube = await startFakeYouTube({ channel: { title: 'Postwave Channel', customUrl: '@postwave' } });
      app = await startApp(backend, {
        ...youtube.env(),
        GOOGLE_CLIENT_ID: youtube.clientId,
        GOOGLE_CLIENT_SECRET: youtube.clientSecret,
        GOOGLE_OAUTH_AUTHORIZE_URL: youtube.authorizationUrl,
      });
    });
    after(async () => {
      await app?.stop();
      await youtube?.close();
    });

    /** Follows the redirects a browser would: us → Google consent → our callback. */
    async function consent(client: Client): Promise<URL> {
      const start = await client.fetch('/api/v1/accounts/connect/youtube');
      assert.equal(start.status, 302);
      const authorize = new URL(start.headers.get('location')!);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('access_type'), 'offline');
      const google = await fetch(authorize, { redirect: 'manual' });
      assert.equal(google.status, 302);
      return new URL(google.headers.get('location')!);
    }

    test('connects the channel through Google OAuth with PKCE; one account per channel', async () => {
      const { client } = await signUp(app.url, 'yt');
      const callback = await consent(client);
      const done = await client.fetch(callback.pathname + callback.search);
      assert.equal(done.status, 302);
      const landed = new URL(done.headers.get('location')!);
      assert.equal(landed.pathname, '/accounts');
      const accountId = landed.searchParams.get('connected');
      assert.ok(accountId, landed.toString());
      const list = await client.json('/api/v1/accounts');
      assert.equal(list.body.accounts.length, 1);
      const account = list.body.accounts[0];
      assert.equal(account.platform, 'youtube');
      assert.equal(account.platformAccountId, youtube.channel!.id);
      assert.equal(account.label, 'Postwave Channel');
      assert.ok(!JSON.stringify(list.body).includes('refresh'));

      const again = await consent(client);
      await client.fetch(again.pathname + again.search);
      assert.equal(
        (await client.json('/api/v1/accounts')).body.accounts.length,
        1,
        'reconnecting keeps one account',
      );

      const replay = await client.fetch(callback.pathname + callback.search);
      assert.match(replay.headers.get('location') ?? '', /error=invalid_state/);
    });

    test("a callback with someone else's state is refused", async () => {
      const alice = await signUp(app.url, 'alice');
      const mallory = await signUp(app.url, 'mallory');
      const callback = await consent(alice.client);
      const stolen = await mallory.client.fetch(callback.pathname + callback.search);
      assert.match(stolen.headers.get('location') ?? '', /error=invalid_state/);
      assert.equal((await mallory.client.json('/api/v1/accounts')).body.accounts.length, 0);
      assert.equal((await alice.client.json('/api/v1/accounts')).body.accounts.length, 0);
    });

    test('a denied consent comes back as an error; unknown platforms are 404; anonymous is 401', async () => {
      const { client } = await signUp(app.url, 'deny');
      youtube.consent = 'deny';
      try {
        const callback = await consent(client);
        const done = await client.fetch(callback.pathname + callback.search);
        assert.match(done.headers.get('location') ?? '', /error=access_denied/);
      } finally {
        youtube.consent = 'approve';
      }
      assert.equal((await client.fetch('/api/v1/accounts/connect/myspace')).status, 404);
      const anonymous = await fetch(`${app.url}/api/v1/accounts/connect/youtube`, { redirect: 'manual' });
      assert.equal(anonymous.status, 401);
    });
  });
}

for (const backend of backends()) {
  describe(`YouTube publishing from the Scheduler (${backend})`, () => {
    let youtube: FakeYouTube;
    let app: RunningApp;
    before(async () => {
      youtube = await startFakeYouTube();
      app = await startApp(backend, youtube.env());
    });
    after(async () => {
      await app?.stop();
      await youtube?.close();
    });

    test('refreshes expired access tokens while publishing; a revoked grant marks the account needs_reconnect', async () => {
      const { api } = await userWithToken(app.url, 'video');
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'youtube', credentials: youtube.credentials() },
      });
      assert.equal(connected.status, 201);
      assert.equal(connected.body.platformAccountId, youtube.channel!.id);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(sampleMp4())], { type: 'video/mp4' }), 'clip.mp4');
      const media = (await api.json('/api/v1/upload', { method: 'POST', body: form })).body.media;
      const publish = (title: string) =>
        api.json('/api/v1/posts', {
          json: {
            message: `${title}\nA video`,
            accountIds: [connected.body.id],
            media,
            postingMode: 'now',
            accountOptions: { [connected.body.id]: { title, privacyStatus: 'private' } },
          },
        });

      const first = await publish('First video');
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal(first.body.status, 'posted', JSON.stringify(first.body.results));

      youtube.invalidateAccessTokens();
      const second = await publish('Second video');
      assert.equal(second.body.status, 'posted', JSON.stringify(second.body.results));
      // The refreshed token was stored: the next publish uses it without refreshing again.
      const refreshes = youtube.requestsTo('POST', /^\/token$/).length;
      const reuse = await publish('Reused token');
      assert.equal(reuse.body.status, 'posted');
      assert.equal(youtube.requestsTo('POST', /^\/token$/).length, refreshes);
      assert.equal(youtube.videos.length, 3);

      youtube.invalidateAccessTokens();
      youtube.revokeRefreshToken();
      const third = await publish('Third video');
      assert.equal(third.body.status, 'failed');
      assert.ok(['needs_reconnect', 'credentials_invalid'].includes(third.body.results[0].error.code));
      const account = await api.json(`/api/v1/accounts/${connected.body.id}`);
      assert.equal(account.body.status, 'needs_reconnect');
      assert.equal(youtube.videos.length, 3);
    });
  });
}
