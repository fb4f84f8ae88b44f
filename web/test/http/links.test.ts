import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  type FakeMastodon,
  type FakeShlink,
  type FakeX,
  startFakeMastodon,
  startFakeShlink,
  startFakeX,
} from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

/*
 * Tracked links over HTTP (docs/links.md, contract section I): UTM parameters and one short link
 * per target and link, reused by a retry; a failing shortener leaves the long link with a
 * warning; clicks land in the post's metrics; the shortener's host is user-chosen (SSRF rules) and
 * its key is never answered nor logged.
 */

const shlinkKey = 'shlink-SECRET-key-5b1d9c';

interface TargetResult {
  accountId: string;
  status: string;
  warnings?: { code: string; message: string }[];
  links?: { url: string; longUrl: string; shortUrl?: string; clicks?: number }[];
}

for (const backend of backends()) {
  describe(`tracked links (${backend})`, () => {
    let app: RunningApp;
    let x: FakeX;
    let mastodon: FakeMastodon;
    let shlink: FakeShlink;
    let internal: Server;
    let internalHits = 0;
    let internalUrl: string;
    before(async () => {
      x = await startFakeX();
      mastodon = await startFakeMastodon({
        tokens: { 'good-token': { username: 'alice', displayName: 'Alice' } },
      });
      shlink = await startFakeShlink([shlinkKey]);
      internal = createServer((_req, res) => {
        internalHits++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"shortUrl":"x","shortCode":"x"}');
      });
      await new Promise<void>((r) => internal.listen(0, '127.0.0.1', () => r()));
      internalUrl = `http://127.0.0.1:${(internal.address() as { port: number }).port}`;
      const allow = [mastodon.url, shlink.url].map((u) => new URL(u).host).join(',');
      app = await startApp(backend, {
        ...x.env(),
        ALLOW_PRIVATE_HOSTS: allow,
        ANALYTICS_COLLECT_AFTER: '1h',
        LOG_LEVEL: 'debug',
      });
    });
    after(async () => {
      await app?.stop();
      await x?.close();
      await mastodon?.close();
      await shlink?.close();
      internal?.closeAllConnections();
      await new Promise((r) => internal?.close(r));
    });

    async function workspace(name: string) {
      const { api, session } = await userWithToken(app.url, name);
      const me = await api.json('/api/v1/workspaces');
      const id = me.body.currentWorkspaceId ?? me.body.workspaces[0].id;
      const xAccount = await api.json('/api/v1/accounts', {
        json: { platform: 'x', credentials: x.credentials() },
      });
      assert.equal(xAccount.status, 201, JSON.stringify(xAccount.body));
      const m = await api.json('/api/v1/accounts', {
        json: { platform: 'mastodon', credentials: mastodon.credentials('good-token') },
      });
      assert.equal(m.status, 201, JSON.stringify(m.body));
      return { api, session, id, xId: xAccount.body.id as string, mastodonId: m.body.id as string };
    }

    const shortenerSettings = {
      utm: { source: '{platform}', medium: 'social', campaign: 'spring' },
      shortener: { provider: 'shlink', apiUrl: '', apiKey: shlinkKey },
    };

    test('settings: write-only key, SSRF rules on the shortener URL, fields named', async () => {
      const { api, id } = await workspace('settings');
      const empty = await api.json(`/api/v1/workspaces/${id}/links`);
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.body, { utm: null, shortener: null });

      const saved = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: {
          ...shortenerSettings,
          shortener: { ...shortenerSettings.shortener, apiUrl: `${shlink.url}/` },
        },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(saved.body.shortener, {
        provider: 'shlink',
        apiUrl: shlink.url,
        domain: null,
        hasApiKey: true,
      });
      assert.deepEqual(saved.body.utm, { source: '{platform}', medium: 'social', campaign: 'spring' });
      const read = await api.json(`/api/v1/workspaces/${id}/links`);
      assert.deepEqual(read.body, saved.body);
      for (const body of [saved.body, read.body, (await api.json(`/api/v1/workspaces/${id}`)).body])
        assert.ok(!JSON.stringify(body).includes(shlinkKey), 'the key is never answered');

      // Same provider and URL: the stored key stays; a domain is added.
      const domain = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'shlink', apiUrl: shlink.url, domain: 'Go.Example' } },
      });
      assert.equal(domain.status, 200, JSON.stringify(domain.body));
      assert.equal(domain.body.shortener.domain, 'go.example');
      assert.equal(domain.body.shortener.hasApiKey, true);

      // Another URL needs the key again: a stored key is never sent to a new host.
      const moved = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'kutt', apiUrl: shlink.url } },
      });
      assert.equal(moved.status, 422);
      assert.equal(moved.body.errors[0].path, 'shortener.apiKey');
      // Same shortener, no domain named: the domain stays. Another provider starts from its own
      // default domain: the old one's would make links it cannot serve.
      const kept = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'shlink', apiUrl: shlink.url } },
      });
      assert.equal(kept.body.shortener.domain, 'go.example');
      const switched = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'kutt', apiUrl: shlink.url, apiKey: 'kutt-key' } },
      });
      assert.equal(switched.status, 200, JSON.stringify(switched.body));
      assert.equal(switched.body.shortener.domain, null);

      // A private address not in ALLOW_PRIVATE_HOSTS is refused, nothing sent.
      for (const apiUrl of [internalUrl, 'http://169.254.169.254', 'http://10.0.0.1:8080']) {
        const refused = await api.json(`/api/v1/workspaces/${id}/links`, {
          method: 'PUT',
          json: { shortener: { provider: 'shlink', apiUrl, apiKey: 'k' } },
        });
        assert.equal(refused.status, 422, apiUrl);
        assert.equal(refused.body.errors[0].path, 'shortener.apiUrl');
      }
      assert.equal(internalHits, 0);

      const bad = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'bitly', apiUrl: shlink.url, apiKey: 'k' } },
      });
      assert.ok(bad.status === 400 || bad.status === 422, String(bad.status));
      assert.match(JSON.stringify(bad.body), /provider/);
      const badUtm = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { utm: { source: 'x'.repeat(101) } },
      });
      assert.ok(badUtm.status === 400 || badUtm.status === 422);
      assert.match(JSON.stringify(badUtm.body), /utm/);

      // Another workspace's settings answer 404, exactly like a missing one.
      const stranger = await userWithToken(app.url, 'stranger');
      assert.equal((await stranger.api.json(`/api/v1/workspaces/${id}/links`)).status, 404);
      const foreignPut = await stranger.api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { utm: null },
      });
      assert.equal(foreignPut.status, 404);

      const off = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: null },
      });
      assert.deepEqual(off.body.shortener, null);
      assert.equal(off.body.utm.medium, 'social');
    });

    test('links are workspace settings too: PATCH /workspaces/{id} sets them with the same checks, GET answers them', async () => {
      const { api, id } = await workspace('settings-patch');
      const patched = await api.json(`/api/v1/workspaces/${id}`, {
        method: 'PATCH',
        json: {
          settings: {
            timezone: 'Europe/Paris',
            utm: { source: '{platform}', medium: 'social' },
            shortener: { provider: 'shlink', apiUrl: shlink.url, apiKey: shlinkKey },
          },
        },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.settings.timezone, 'Europe/Paris');
      assert.deepEqual(patched.body.settings.utm, { source: '{platform}', medium: 'social' });
      assert.equal(patched.body.settings.shortener.hasApiKey, true);
      const read = await api.json(`/api/v1/workspaces/${id}`);
      assert.deepEqual(read.body.settings, patched.body.settings);
      assert.deepEqual((await api.json(`/api/v1/workspaces/${id}/links`)).body, {
        utm: patched.body.settings.utm,
        shortener: patched.body.settings.shortener,
      });
      assert.ok(!JSON.stringify(read.body).includes(shlinkKey), 'the key is never answered');
      // The shortener's host is checked as on /links; a refusal changes nothing, the timezone included.
      const refused = await api.json(`/api/v1/workspaces/${id}`, {
        method: 'PATCH',
        json: {
          settings: {
            timezone: 'Asia/Tokyo',
            shortener: { provider: 'shlink', apiUrl: internalUrl, apiKey: 'k' },
          },
        },
      });
      assert.equal(refused.status, 422);
      assert.equal(internalHits, 0);
      assert.deepEqual((await api.json(`/api/v1/workspaces/${id}`)).body.settings, patched.body.settings);
    });

    test('publish: UTM’d short links, one per target and link, reused by a retry; clicks in the metrics', async () => {
      const { api, id, xId, mastodonId } = await workspace('publisher');
      const put = await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { ...shortenerSettings, shortener: { ...shortenerSettings.shortener, apiUrl: shlink.url } },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      const before = shlink.creations.length;

      // Mastodon refuses the first send for good: X posts, Mastodon fails (its links already shortened).
      mastodon.server.inject({
        path: /^\/api\/v1\/statuses$/,
        status: 422,
        json: { error: 'Validation failed: try later' },
      });
      const message =
        'Read https://ex.com/a?ref=home and https://ex.com/b?utm_source=news, not ftp://ex.com/f';
      const first = await api.json('/api/v1/posts', {
        json: { message, accountIds: [xId, mastodonId], postingMode: 'now' },
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const byAccount = (body: { results: TargetResult[] }) =>
        Object.fromEntries(body.results.map((r) => [r.accountId, r]));
      let results = byAccount(first.body);
      assert.equal(results[xId]!.status, 'posted');
      assert.equal(results[mastodonId]!.status, 'failed', JSON.stringify(results[mastodonId]));
      assert.equal(shlink.creations.length - before, 4, 'two links on each of two targets');

      const longUrls = shlink.links.slice(-4).map((l) => l.longUrl);
      assert.ok(
        longUrls.includes('https://ex.com/a?ref=home&utm_source=x&utm_medium=social&utm_campaign=spring'),
      );
      assert.ok(longUrls.includes('https://ex.com/b?utm_source=news&utm_medium=social&utm_campaign=spring'));
      assert.ok(
        longUrls.includes(
          'https://ex.com/a?ref=home&utm_source=mastodon&utm_medium=social&utm_campaign=spring',
        ),
      );

      const xLinks = results[xId]!.links!;
      assert.equal(xLinks.length, 2);
      const tweet = x.posts.at(-1)!.text;
      for (const link of xLinks) {
        assert.ok(link.shortUrl && tweet.includes(link.shortUrl), `${tweet} has ${link.shortUrl}`);
        assert.ok(!tweet.includes(link.url));
      }
      assert.ok(tweet.endsWith('not ftp://ex.com/f'), 'other schemes left alone');

      // The retry posts Mastodon's target with the short links made for it the first time.
      const retried = await api.json(`/api/v1/posts/${first.body.id}`, { json: { postingMode: 'now' } });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.status, 'posted');
      assert.equal(shlink.creations.length - before, 4, 'no link was shortened again');
      results = byAccount(retried.body);
      const status = mastodon.statuses.at(-1)!.text;
      const mLinks = results[mastodonId]!.links!;
      for (const link of mLinks) assert.ok(link.shortUrl && status.includes(link.shortUrl));
      const xShort = new Set(xLinks.map((l) => l.shortUrl));
      assert.ok(
        mLinks.every((l) => !xShort.has(l.shortUrl)),
        'each network has its own short links',
      );

      // Clicks: counted per network, summed over the target's links, in the post's metrics.
      shlink.click(mLinks[0]!.shortUrl!, 5);
      shlink.click(mLinks[1]!.shortUrl!, 2);
      shlink.click(xLinks[0]!.shortUrl!, 1);
      const refreshed = await api.json(`/api/v1/posts/${first.body.id}/metrics/refresh`, { method: 'POST' });
      assert.equal(refreshed.status, 202, JSON.stringify(refreshed.body));
      const metrics = await api.json(`/api/v1/posts/${first.body.id}/metrics`);
      const m = Object.fromEntries(
        metrics.body.targets.map((t: { accountId: string }) => [t.accountId, t]),
      ) as Record<string, { metrics: { clicks?: number }; supported: string[] }>;
      assert.equal(m[mastodonId]!.metrics.clicks, 7, JSON.stringify(metrics.body));
      assert.equal(m[xId]!.metrics.clicks, 1);
      assert.ok(m[mastodonId]!.supported.includes('clicks'));
      const post = await api.json(`/api/v1/posts/${first.body.id}`);
      const clicks = byAccount(post.body)[mastodonId]!.links!.map((l) => l.clicks);
      assert.deepEqual(clicks.sort(), [2, 5]);
    });

    test('a failing shortener leaves the long link and says so; the post goes out', async () => {
      const { api, id, mastodonId } = await workspace('failing');
      await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: {
          utm: { source: '{platform}' },
          shortener: { provider: 'shlink', apiUrl: shlink.url, apiKey: shlinkKey },
        },
      });
      shlink.server.inject({
        status: 429,
        headers: { 'retry-after': '30' },
        json: { title: 'Too many' },
        times: 1,
      });
      const res = await api.json('/api/v1/posts', {
        json: { message: 'Long: https://ex.org/page', accountIds: [mastodonId], postingMode: 'now' },
      });
      assert.equal(res.status, 201);
      assert.equal(res.body.status, 'posted', JSON.stringify(res.body));
      assert.equal(mastodon.statuses.at(-1)!.text, 'Long: https://ex.org/page?utm_source=mastodon');
      const [target] = res.body.results as TargetResult[];
      assert.equal(target!.warnings?.[0]?.code, 'link_not_shortened', JSON.stringify(target));
      assert.match(target!.warnings![0]!.message, /429/);
      assert.deepEqual(target!.links, [
        { url: 'https://ex.org/page', longUrl: 'https://ex.org/page?utm_source=mastodon' },
      ]);

      // A wrong key: same outcome, and the key appears in no answer and no log line.
      await api.json(`/api/v1/workspaces/${id}/links`, {
        method: 'PUT',
        json: { shortener: { provider: 'shlink', apiUrl: shlink.url, apiKey: 'WRONG-key-8f2e1a' } },
      });
      const wrong = await api.json('/api/v1/posts', {
        json: { message: 'Again https://ex.org/two', accountIds: [mastodonId], postingMode: 'now' },
      });
      assert.equal(wrong.body.status, 'posted');
      assert.equal(wrong.body.results[0].warnings[0].code, 'link_not_shortened');
      assert.match(wrong.body.results[0].warnings[0].message, /API key/);
      const logs = app.output();
      assert.ok(!logs.includes(shlinkKey) && !logs.includes('WRONG-key-8f2e1a'), 'no key in the logs');
      assert.ok(!JSON.stringify(wrong.body).includes('WRONG-key-8f2e1a'));
    });
  });
}
