import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type FakeFacebook,
  type FakeInstagram,
  type FakeLinkedIn,
  type FakeThreads,
  type FakeX,
  sampleJpeg,
  startFakeFacebook,
  startFakeInstagram,
  startFakeLinkedIn,
  startFakeThreads,
  startFakeX,
} from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

/*
 * X, Threads, LinkedIn, Facebook Pages and Instagram through the Scheduler, each against its fake
 * at the HTTP level: the browser's redirects through the generic OAuth connect flow (consent on
 * the fake's authorize endpoint), the picker when one login reaches several accounts, publishing,
 * refresh ahead of expiry and `needs_reconnect` with a reconnect that updates the same account.
 */

interface Landing {
  url: URL;
  authorize: URL;
}

/** What a browser does: us → the platform's consent screen (approves at once) → our callback. */
async function connect(client: Client, platform: string, query = ''): Promise<Landing> {
  const start = await client.fetch(`/api/v1/accounts/connect/${platform}${query}`);
  assert.equal(start.status, 302, await start.text());
  const authorize = new URL(start.headers.get('location')!);
  const consent = await fetch(authorize, { redirect: 'manual' });
  assert.equal(consent.status, 302, `${platform} consent: ${await consent.text()}`);
  const callback = new URL(consent.headers.get('location')!);
  assert.equal(callback.pathname, `/api/v1/accounts/connect/${platform}/callback`);
  const done = await client.fetch(callback.pathname + callback.search);
  assert.equal(done.status, 302, await done.text());
  return { url: new URL(done.headers.get('location')!), authorize };
}

/** The picker page's choices (platform account ids and what the page says about them). */
async function pickerChoices(client: Client, landing: URL): Promise<{ html: string; ids: string[] }> {
  assert.equal(landing.pathname, '/accounts/pick', landing.toString());
  const page = await client.fetch(landing.pathname + landing.search);
  assert.equal(page.status, 200);
  const html = await page.text();
  const ids = [...html.matchAll(/<input[^>]*name="accountIds"[^>]*value="([^"]+)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );
  return { html, ids };
}

async function pick(client: Client, platform: string, landing: URL, ids: string[]): Promise<URL> {
  const form = new URLSearchParams({ pending: landing.searchParams.get('pending')! });
  for (const id of ids) form.append('accountIds', id);
  const response = await client.fetch(`/api/v1/accounts/connect/${platform}/pick`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  assert.equal(response.status, 303, await response.text());
  return new URL(response.headers.get('location')!);
}

// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
type Json = any;

async function accountsOf(client: Client, platform: string): Promise<Json[]> {
  const { body } = await client.json('/api/v1/accounts');
  return body.accounts.filter((a: Json) => a.platform === platform);
}

async function publish(client: Client, accountIds: string[], message: string, media?: Json) {
  return client.json('/api/v1/posts', {
    json: { message, accountIds, postingMode: 'now', ...(media ? { media } : {}) },
  });
}

for (const backend of backends()) {
  describe(`OAuth platforms through the Scheduler (${backend})`, () => {
    let x: FakeX;
    let threads: FakeThreads;
    let linkedin: FakeLinkedIn;
    let facebook: FakeFacebook;
    let instagram: FakeInstagram;
    let app: RunningApp;

    before(async () => {
      [x, threads, linkedin, facebook, instagram] = await Promise.all([
        startFakeX(),
        startFakeThreads(),
        startFakeLinkedIn(),
        startFakeFacebook(),
        startFakeInstagram(),
      ]);
      app = await startApp(backend, {
        ...x.env(),
        ...threads.env(),
        ...linkedin.env(),
        LINKEDIN_ORGANIZATIONS: 'true',
        ...facebook.env(),
        ...instagram.env(),
      });
    });
    after(async () => {
      await app?.stop();
      await Promise.all([
        x?.close(),
        threads?.close(),
        linkedin?.close(),
        facebook?.close(),
        instagram?.close(),
      ]);
    });

    test('X: PKCE consent, one account, a post reaches the fake; the connection is reused', async () => {
      const { client } = await signUp(app.url, 'x');
      const { url, authorize } = await connect(client, 'x');
      assert.equal(authorize.origin, x.url);
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.ok(authorize.searchParams.get('code_challenge'));
      assert.equal(
        authorize.searchParams.get('redirect_uri'),
        `${app.url}/api/v1/accounts/connect/x/callback`,
      );
      assert.equal(url.pathname, '/accounts');
      const [account] = await accountsOf(client, 'x');
      assert.equal(url.searchParams.get('connected'), account.id);
      assert.equal(account.platformAccountId, x.user.id);
      assert.equal(account.username, x.user.username);
      assert.equal(account.status, 'active');

      const posted = await publish(client, [account.id], 'Hello from the Scheduler');
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body.results));
      const tweet = x.posts.find((p) => p.id === posted.body.results[0].platformPostId);
      assert.equal(tweet?.text, 'Hello from the Scheduler');
      assert.equal(tweet?.authorId, x.user.id);

      // Connecting the same X account again keeps one account.
      await connect(client, 'x');
      assert.equal((await accountsOf(client, 'x')).length, 1);
    });

    test('X: a token close to expiry is refreshed before publishing and the rotated one stored', async () => {
      const { client } = await signUp(app.url, 'x-refresh');
      x.accessTokenTtlSeconds = 30; // inside the SDK's refresh-ahead margin
      try {
        await connect(client, 'x');
      } finally {
        x.accessTokenTtlSeconds = 7200;
      }
      const [account] = await accountsOf(client, 'x');
      const refreshes = () =>
        x
          .requestsTo('POST', /^\/2\/oauth2\/token$/)
          .filter((r) => (r.body as Record<string, unknown> | undefined)?.grant_type === 'refresh_token')
          .length;
      const before = refreshes();
      const first = await publish(client, [account.id], 'Refreshed ahead of expiry');
      assert.equal(first.body.status, 'posted', JSON.stringify(first.body.results));
      assert.equal(refreshes(), before + 1);
      // X rotates refresh tokens: publishing again works only if the new pair was stored; the
      // new access token lives two hours, so no second refresh happens.
      const second = await publish(client, [account.id], 'Stored the rotated token');
      assert.equal(second.body.status, 'posted', JSON.stringify(second.body.results));
      assert.equal(refreshes(), before + 1);
    });

    test('X: a failed refresh marks the account needs_reconnect; reconnecting updates the same account', async () => {
      const { client } = await signUp(app.url, 'x-revoked');
      await connect(client, 'x');
      const [account] = await accountsOf(client, 'x');
      x.invalidateAccessTokens();
      x.revokeRefreshTokens();
      const failed = await publish(client, [account.id], 'Will not go out');
      assert.equal(failed.body.status, 'failed');
      assert.ok(
        ['needs_reconnect', 'credentials_invalid'].includes(failed.body.results[0].error.code),
        JSON.stringify(failed.body.results),
      );
      assert.match(failed.body.results[0].error.message, /reconnect/i);
      const broken = await client.json(`/api/v1/accounts/${account.id}`);
      assert.equal(broken.body.status, 'needs_reconnect');

      const page = await (await client.fetch('/accounts')).text();
      assert.match(page, /Needs reconnect/);
      assert.match(page, /no longer accepts this connection/);
      assert.match(page, /Reconnect/);

      const { url, authorize } = await connect(client, 'x', `?accountId=${account.id}`);
      assert.equal(authorize.origin, x.url);
      assert.equal(url.searchParams.get('connected'), account.id, url.toString());
      const accounts = await accountsOf(client, 'x');
      assert.deepEqual(
        accounts.map((a) => [a.id, a.status]),
        [[account.id, 'active']],
      );
      const again = await publish(client, [account.id], 'Back after reconnecting');
      assert.equal(again.body.status, 'posted', JSON.stringify(again.body.results));

      // A reconnect may only start for one's own account on that platform.
      const other = await signUp(app.url, 'x-other');
      assert.equal(
        (await other.client.fetch(`/api/v1/accounts/connect/x?accountId=${account.id}`)).status,
        404,
      );
      assert.equal(
        (await client.fetch(`/api/v1/accounts/connect/threads?accountId=${account.id}`)).status,
        404,
      );
    });

    test('Threads: consent without PKCE, long-lived token, a text post reaches the fake', async () => {
      const { client } = await signUp(app.url, 'threads');
      const { url, authorize } = await connect(client, 'threads');
      assert.equal(authorize.origin, threads.url);
      assert.equal(authorize.searchParams.get('code_challenge'), null);
      assert.equal(url.pathname, '/accounts');
      const [account] = await accountsOf(client, 'threads');
      assert.equal(account.platformAccountId, threads.user.id);
      const posted = await publish(client, [account.id], 'Threads from the Scheduler');
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body.results));
      const post = threads.posts.find((p) => p.id === posted.body.results[0].platformPostId);
      assert.equal(post?.text, 'Threads from the Scheduler');
      assert.equal(post?.userId, threads.user.id);
    });

    test('LinkedIn: the member and the organizations they administer are offered; one account each', async () => {
      const { client } = await signUp(app.url, 'linkedin');
      const { url } = await connect(client, 'linkedin');
      const { html, ids } = await pickerChoices(client, url);
      assert.deepEqual(ids.sort(), [linkedin.memberUrn, 'urn:li:organization:2414183'].sort());
      assert.match(html, /Ada Lovelace/);
      assert.match(html, /Analytical Engines Ltd/);
      assert.doesNotMatch(html, /Somebody Else Inc/, 'pages the member does not administer are not offered');
      assert.doesNotMatch(html, /AQV/, 'no token on the page');
      const landed = await pick(client, 'linkedin', url, ids);
      assert.equal(landed.pathname, '/accounts');
      assert.equal(landed.searchParams.getAll('connected').length, 2);
      const accounts = await accountsOf(client, 'linkedin');
      assert.deepEqual(accounts.map((a) => a.platformAccountId).sort(), [...ids].sort());

      const posted = await publish(
        client,
        accounts.map((a) => a.id),
        'Engines (and members) say hello',
      );
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body.results));
      const authors = posted.body.results.map(
        (r: Json) => linkedin.posts.find((p) => p.urn === r.platformPostId)?.author,
      );
      assert.deepEqual(authors.sort(), [...ids].sort());
      assert.ok(linkedin.posts.every((p) => !p.text || p.text === 'Engines (and members) say hello'));

      // The choice is single use.
      const replay = await pick(client, 'linkedin', url, ids);
      assert.equal(replay.searchParams.get('error'), 'invalid_state');
    });

    test('Facebook: several pages → the picker; the chosen page is connected and posted to', async () => {
      const { client, user } = await signUp(app.url, 'facebook');
      const { url } = await connect(client, 'facebook');
      const { ids } = await pickerChoices(client, url);
      assert.deepEqual(
        ids,
        facebook.pages.map((p) => p.id),
      );

      // Someone else cannot use (or see) this user's pending choice.
      const mallory = await signUp(app.url, 'mallory');
      const stolen = await mallory.client.fetch(url.pathname + url.search);
      assert.doesNotMatch(await stolen.text(), /Postwave Bakery/);
      const stolenPick = await mallory.client.json('/api/v1/accounts/connect/facebook/pick', {
        json: { pending: url.searchParams.get('pending'), accountIds: ids },
      });
      assert.equal(stolenPick.status, 404);
      assert.equal((await accountsOf(mallory.client, 'facebook')).length, 0);
      assert.ok(user.id);

      // Nothing chosen: back to the picker with a message, nothing saved.
      const none = await pick(client, 'facebook', url, []);
      assert.equal(none.pathname, '/accounts/pick');
      assert.equal(none.searchParams.get('error'), 'nothing_chosen');
      assert.match(await (await client.fetch(none.pathname + none.search)).text(), /Choose at least one/);

      const landed = await pick(client, 'facebook', url, [facebook.pages[1]!.id]);
      assert.equal(landed.searchParams.getAll('connected').length, 1);
      const [page] = await accountsOf(client, 'facebook');
      assert.equal(page.platformAccountId, facebook.pages[1]!.id);
      assert.equal(page.label, facebook.pages[1]!.name);

      const posted = await publish(client, [page.id], 'Fresh from the garage');
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body.results));
      const post = facebook.posts.find((p) => p.id === posted.body.results[0].platformPostId);
      assert.equal(post?.pageId, facebook.pages[1]!.id);
      assert.equal(post?.message, 'Fresh from the garage');
    });

    test('Instagram: Instagram Login, one professional account, a photo post fetched from our media URL', async () => {
      const { client } = await signUp(app.url, 'instagram');
      const { url, authorize } = await connect(client, 'instagram');
      assert.equal(authorize.origin, instagram.url);
      assert.equal(url.pathname, '/accounts');
      const [account] = await accountsOf(client, 'instagram');
      assert.equal(account.platformAccountId, instagram.account.id);
      assert.equal(account.username, instagram.account.username);

      const textOnly = await publish(client, [account.id], 'No photo');
      assert.equal(textOnly.status, 422, 'Instagram requires media');

      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(sampleJpeg())], { type: 'image/jpeg' }), 'photo.jpg');
      const upload = await client.json('/api/v1/upload', { method: 'POST', body: form });
      assert.equal(upload.status, 201, JSON.stringify(upload.body));
      const posted = await publish(client, [account.id], 'Croissants are out', upload.body.media);
      assert.equal(posted.body.status, 'posted', JSON.stringify(posted.body.results));
      const media = instagram.media.find((m) => m.id === posted.body.results[0].platformPostId);
      assert.equal(media?.caption, 'Croissants are out');
      assert.deepEqual(instagram.containers.get(media!.containerId)!.media?.bytes, sampleJpeg());
    });

    test('denied consent, unknown platforms, unconfigured platforms and anonymous callers', async () => {
      const { client } = await signUp(app.url, 'deny');
      facebook.consent = 'deny';
      try {
        const { url } = await connect(client, 'facebook');
        assert.equal(url.searchParams.get('error'), 'access_denied');
        assert.match(url.searchParams.get('message') ?? '', /cancelled/);
      } finally {
        facebook.consent = 'approve';
      }
      assert.equal((await accountsOf(client, 'facebook')).length, 0);
      assert.equal((await client.fetch('/api/v1/accounts/connect/myspace')).status, 404);
      // A credentials platform has no OAuth flow.
      assert.equal((await client.fetch('/api/v1/accounts/connect/telegram')).status, 404);
      // YouTube's client is not configured here: a clear 501 naming the settings.
      const unconfigured = await client.json('/api/v1/accounts/connect/youtube');
      assert.equal(unconfigured.status, 501);
      assert.match(unconfigured.body.detail, /not set up on this server/);
      const anonymous = await fetch(`${app.url}/api/v1/accounts/connect/x`, { redirect: 'manual' });
      assert.equal(anonymous.status, 401);
      const openapi = await client.json('/openapi.json');
      for (const path of ['', '/callback', '/pick'])
        assert.ok(openapi.body.paths[`/api/v1/accounts/connect/{platform}${path}`], path);
    });
  });
}
