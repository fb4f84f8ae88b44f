import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  type FakeBluesky,
  type FakeMastodon,
  startFakeBluesky,
  startFakeMastodon,
} from '@postwave/shared/testing';
import { type RunningApp, startApp } from './helpers/app.ts';
import { userWithToken } from './helpers/client.ts';
import { backends } from './helpers/databases.ts';

/**
 * SSRF (SECURITY.md, "User-chosen URLs"): Mastodon `instanceUrl` and Bluesky `service` are user-chosen hosts.
 * They are reached only through the SDK's safe fetch; ALLOW_PRIVATE_HOSTS names the local fakes.
 */

interface Listener {
  server: Server;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

/** An HTTP server that answers every request with `answer` and records what reached it. */
async function listen(
  answer: (path: string) => { status: number; type: string; body: string },
): Promise<Listener> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const a = answer(req.url ?? '/');
    res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    server,
    port: (server.address() as { port: number }).port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function closedPort(): Promise<number> {
  const l = await listen(() => ({ status: 200, type: 'text/plain', body: '' }));
  await l.close();
  return l.port;
}

const secret = 'INTERNAL-SECRET-7f3a';

for (const backend of backends()) {
  describe(`user-chosen hosts go through the SSRF-safe fetch (${backend})`, () => {
    let app: RunningApp;
    let mastodon: FakeMastodon;
    let bluesky: FakeBluesky;
    let internal: Listener;
    let hostile: Listener;
    let closed: number;
    before(async () => {
      mastodon = await startFakeMastodon({
        tokens: { 'good-token': { username: 'alice', displayName: 'Alice' } },
      });
      bluesky = await startFakeBluesky({
        accounts: [{ handle: 'bob.test', did: 'did:plc:bob', appPassword: 'bob-app-password' }],
      });
      // Not in ALLOW_PRIVATE_HOSTS: an internal service nobody may reach through the app.
      internal = await listen(() => ({
        status: 200,
        type: 'application/json',
        body: JSON.stringify({ secret }),
      }));
      // Allowed, but not Mastodon or Bluesky: answers JSON full of fields that must not be copied.
      hostile = await listen((path) =>
        path.includes('xrpc')
          ? {
              status: 200,
              type: 'application/json',
              body: JSON.stringify({ did: secret, handle: secret, accessJwt: secret, refreshJwt: secret }),
            }
          : {
              status: 200,
              type: 'application/json',
              body: JSON.stringify({
                id: { nested: secret },
                username: `${secret} admin`,
                display_name: secret,
              }),
            },
      );
      closed = await closedPort();
      const allow = [
        mastodon.url,
        bluesky.url,
        `http://127.0.0.1:${hostile.port}`,
        `http://127.0.0.1:${closed}`,
      ]
        .map((u) => new URL(u).host)
        .join(',');
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: allow });
    });
    after(async () => {
      await app?.stop();
      await mastodon?.close();
      await bluesky?.close();
      await internal?.close();
      await hostile?.close();
    });

    const connect = async (
      api: Awaited<ReturnType<typeof userWithToken>>['api'],
      platform: string,
      credentials: object,
    ) => api.json('/api/v1/accounts', { json: { platform, credentials } });

    test('private, loopback and metadata addresses are refused with 422 target_unreachable; nothing is sent', async () => {
      const { api } = await userWithToken(app.url, 'ssrf');
      const targets = [
        `http://127.0.0.1:${internal.port}`,
        `http://localhost:${internal.port}`,
        'http://169.254.169.254',
        'https://10.0.0.1',
        'https://[::1]',
        'https://100.64.0.1',
      ];
      for (const instanceUrl of targets) {
        const res = await connect(api, 'mastodon', { instanceUrl, accessToken: 'good-token' });
        assert.equal(res.status, 422, `${instanceUrl}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, 'target_unreachable', instanceUrl);
        assert.match(res.body.detail, /ALLOW_PRIVATE_HOSTS|not allowed|may not reach/, instanceUrl);
      }
      const sky = await connect(api, 'bluesky', {
        identifier: 'bob.test',
        appPassword: 'x',
        service: `http://127.0.0.1:${internal.port}`,
      });
      assert.equal(sky.status, 422);
      assert.equal(sky.body.code, 'target_unreachable');
      assert.deepEqual(internal.hits, [], 'no request reached the internal service');
      assert.ok(!JSON.stringify(sky.body).includes(secret));
    });

    test('an allowed Mastodon and Bluesky connect, and a post publishes through the safe fetch', async () => {
      const { api } = await userWithToken(app.url, 'allowed');
      const m = await connect(api, 'mastodon', { instanceUrl: mastodon.url, accessToken: 'good-token' });
      assert.equal(m.status, 201, JSON.stringify(m.body));
      assert.equal(m.body.label, 'Alice');
      const b = await connect(api, 'bluesky', {
        identifier: 'bob.test',
        appPassword: 'bob-app-password',
        service: bluesky.url,
      });
      assert.equal(b.status, 201, JSON.stringify(b.body));
      const post = await api.json('/api/v1/posts', {
        json: { message: 'through the guard', accountIds: [m.body.id, b.body.id], postingMode: 'now' },
      });
      assert.equal(post.status, 201, JSON.stringify(post.body));
      assert.equal(post.body.status, 'posted', JSON.stringify(post.body.results));
      assert.equal(mastodon.statuses.at(-1)?.text, 'through the guard');
    });

    test('a closed port and an open non-Mastodon port answer the same, echoing nothing of the reply', async () => {
      const { api } = await userWithToken(app.url, 'scan');
      const open = await connect(api, 'mastodon', {
        instanceUrl: `http://127.0.0.1:${hostile.port}`,
        accessToken: 'good-token',
      });
      const shut = await connect(api, 'mastodon', {
        instanceUrl: `http://127.0.0.1:${closed}`,
        accessToken: 'good-token',
      });
      assert.ok(hostile.hits.length > 0, 'the allowed host was asked');
      for (const res of [open, shut]) {
        assert.equal(res.status, 422, JSON.stringify(res.body));
        assert.equal(res.body.code, 'target_unreachable');
        assert.ok(!JSON.stringify(res.body).includes(secret), JSON.stringify(res.body));
      }
      const strip = (body: { detail: string; errors: unknown }) => ({
        detail: body.detail,
        errors: body.errors,
      });
      assert.deepEqual(strip(open.body), strip(shut.body));

      const sky = await connect(api, 'bluesky', {
        identifier: 'bob.test',
        appPassword: 'x',
        service: `http://127.0.0.1:${hostile.port}`,
      });
      const skyShut = await connect(api, 'bluesky', {
        identifier: 'bob.test',
        appPassword: 'x',
        service: `http://127.0.0.1:${closed}`,
      });
      assert.equal(sky.status, 422);
      assert.ok(!JSON.stringify(sky.body).includes(secret), JSON.stringify(sky.body));
      assert.deepEqual(strip(sky.body), strip(skyShut.body));
      const accounts = await api.json('/api/v1/accounts');
      assert.equal(accounts.body.accounts.length, 0);
    });
  });
}
