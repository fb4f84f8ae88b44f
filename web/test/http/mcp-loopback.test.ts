import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import { signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { connect, loopbackRedirect, rawMcp, TestProvider } from '../helpers/oauth.ts';

/*
 * The app fetches client ID metadata documents and media from an HTTPS fake on 127.0.0.1. Two
 * test-only settings make that reachable; the code path is the production one (https, TLS
 * verification, the SSRF guard's checks, pinning, redirects):
 * - ALLOW_PRIVATE_HOSTS=127.0.0.1 lets the guard connect to the loopback fake on any port;
 * - NODE_EXTRA_CA_CERTS makes Node trust the fake's self-signed certificate, made here with openssl.
 */
const accessTtlSeconds = 2;
const maxUploadBytes = 100_000;

function selfSignedCertificate(dir: string): { key: Buffer; cert: Buffer; certPath: string } {
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}

interface HttpsFake {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function startHttpsFake(tls: { key: Buffer; cert: Buffer }): Promise<HttpsFake> {
  const png = samplePng();
  const requests: string[] = [];
  let url = '';
  const server: Server = createServer(tls, (req, res) => {
    requests.push(req.url ?? '');
    const path = new URL(req.url ?? '/', 'https://fake').pathname;
    const json = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (path === '/clients/postwave-test.json') {
      json({
        client_id: `${url}/clients/postwave-test.json`,
        client_name: 'Metadata Document Client',
        redirect_uris: [loopbackRedirect],
        token_endpoint_auth_method: 'none',
      });
    } else if (path === '/clients/impostor.json') {
      json({ client_id: `${url}/clients/someone-else.json`, redirect_uris: [loopbackRedirect] });
    } else if (path === '/media/photo.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
    } else if (path === '/media/odd%ZZ.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length }).end(png);
    } else if (path === '/media/moved.png') {
      res.writeHead(302, { location: '/media/photo.png' }).end();
    } else if (path === '/media/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': maxUploadBytes * 2 });
      res.end(Buffer.alloc(maxUploadBytes * 2));
    } else if (path === '/media/endless.png') {
      // No Content-Length: the limit has to hold while streaming.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png);
      res.end(Buffer.alloc(maxUploadBytes * 2));
    } else if (path === '/media/notes.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end('just some text, not an image');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tool results are read as JSON
const problemOf = (result: any) => result.structuredContent?.error;

for (const backend of backends()) {
  describe(`MCP with HTTPS fakes on loopback (${backend})`, () => {
    let env: TelegramApp;
    let fake: HttpsFake;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'postwave-tls-'));
      const tls = selfSignedCertificate(dir);
      fake = await startHttpsFake(tls);
      env = await startTelegramApp(backend, {
        ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        NODE_EXTRA_CA_CERTS: tls.certPath,
        OAUTH_ACCESS_TOKEN_TTL_SECONDS: String(accessTtlSeconds),
        MAX_UPLOAD_BYTES: String(maxUploadBytes),
      });
    });
    after(async () => {
      await env?.stop();
      await fake?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a client ID metadata document (https URL as client_id) through the SDK client', async () => {
      const { client: browser } = await signUp(env.app.url, 'cimd');
      const accountId = await connectTelegram(browser);
      const clientId = `${fake.url}/clients/postwave-test.json`;
      const { client, provider, page } = await connect(env.app.url, browser, new TestProvider(clientId));
      assert.equal(provider.info?.client_id, clientId, 'no dynamic registration');
      assert.equal(provider.authorizationUrl?.searchParams.get('client_id'), clientId);
      assert.match(page, /Metadata Document Client/, 'the consent page names the document');
      assert.ok(fake.requests.includes('/clients/postwave-test.json'), 'the app fetched the document');
      const accounts = await client.callTool({ name: 'list_accounts', arguments: {} });
      // biome-ignore lint/suspicious/noExplicitAny: JSON
      assert.equal((accounts.structuredContent as any).accounts[0].id, accountId);

      // A document that names another client_id is refused, and the browser is not redirected.
      const impostor = new URLSearchParams({
        response_type: 'code',
        client_id: `${fake.url}/clients/impostor.json`,
        redirect_uri: loopbackRedirect,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      const refused = await browser.fetch(`/api/oauth/authorize?${impostor}`);
      assert.equal(refused.status, 400);
      assert.equal(refused.headers.get('location'), null);
      assert.match(await refused.text(), /another client_id/);
    });

    test('an expired access token gets 401 invalid_token at /mcp; the SDK client refreshes and goes on', async () => {
      const { client: browser } = await signUp(env.app.url, 'expiry');
      const accountId = await connectTelegram(browser);
      const { client, provider } = await connect(env.app.url, browser);
      const first = provider.saved!;
      assert.equal(first.expires_in, accessTtlSeconds, 'the configured lifetime is announced');
      assert.equal((await rawMcp(env.app.url, first.access_token)).status, 200);

      await new Promise((r) => setTimeout(r, accessTtlSeconds * 1000 + 500));
      const expired = await rawMcp(env.app.url, first.access_token);
      assert.equal(expired.status, 401);
      const challenge = expired.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /);
      assert.match(challenge, /error="invalid_token"/);
      assert.match(
        challenge,
        new RegExp(`resource_metadata="${env.app.url}/\\.well-known/oauth-protected-resource/mcp"`),
      );

      const created = await client.callTool({
        name: 'create_post',
        arguments: { message: 'After a refresh', accountIds: [accountId], postingMode: 'now' },
      });
      assert.equal(created.isError, undefined, JSON.stringify(created.content));
      // biome-ignore lint/suspicious/noExplicitAny: JSON
      assert.equal((created.structuredContent as any).status, 'posted');
      assert.equal(env.telegram.sent.at(-1)!.text, 'After a refresh');
      const second = provider.saved!;
      assert.notEqual(second.access_token, first.access_token, 'the SDK refreshed');
      assert.notEqual(second.refresh_token, first.refresh_token, 'and the refresh token rotated');
    });

    test('upload_media_from_url stores the file; a post with it reaches Telegram', async () => {
      const { client: browser } = await signUp(env.app.url, 'from-url');
      const accountId = await connectTelegram(browser);
      const { client } = await connect(env.app.url, browser);
      const png = samplePng();
      const uploaded = await client.callTool({
        name: 'upload_media_from_url',
        arguments: { url: `${fake.url}/media/moved.png` },
      });
      assert.equal(uploaded.isError, undefined, JSON.stringify(uploaded.content));
      // biome-ignore lint/suspicious/noExplicitAny: JSON
      const media = (uploaded.structuredContent as any).media;
      assert.equal(media.contentType, 'image/png');
      assert.equal(media.size, png.length);
      assert.equal(media.filename, 'photo.png', 'named after the final URL');
      const served = await fetch(media.url);
      assert.equal(served.status, 200);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);

      const created = await client.callTool({
        name: 'create_post',
        arguments: { message: 'Fetched photo', accountIds: [accountId], postingMode: 'now', media },
      });
      assert.equal(created.isError, undefined, JSON.stringify(created.content));
      // biome-ignore lint/suspicious/noExplicitAny: JSON
      assert.equal((created.structuredContent as any).status, 'posted');
      const sent = env.telegram.sent.at(-1)!;
      assert.equal(sent.method, 'sendPhoto');
      assert.equal(sent.caption, 'Fetched photo');
      assert.deepEqual(sent.files[0]!.bytes, png);
    });

    test('upload_media_from_url takes a URL with malformed percent-encoding (%ZZ) without throwing', async () => {
      const { client: browser } = await signUp(env.app.url, 'from-url-odd');
      const { client } = await connect(env.app.url, browser);
      const uploaded = await client.callTool({
        name: 'upload_media_from_url',
        arguments: { url: `${fake.url}/media/odd%ZZ.png` },
      });
      assert.equal(uploaded.isError, undefined, JSON.stringify(uploaded.content));
      // biome-ignore lint/suspicious/noExplicitAny: JSON
      const media = (uploaded.structuredContent as any).media;
      assert.equal(media.contentType, 'image/png');
      assert.match(media.filename, /^odd.zz\.png$/i);
    });

    test('upload_media_from_url refusals are tool errors with the REST codes', async () => {
      const { client: browser } = await signUp(env.app.url, 'from-url-refused');
      const { client } = await connect(env.app.url, browser);
      const call = (url: string) => client.callTool({ name: 'upload_media_from_url', arguments: { url } });

      // Private and metadata addresses stay refused even with the loopback override.
      for (const url of ['https://10.1.2.3/photo.png', 'https://169.254.169.254/latest/meta-data']) {
        const result = await call(url);
        assert.equal(result.isError, true, url);
        const error = problemOf(result);
        assert.equal(error.status, 422, url);
        assert.equal(error.code, 'validation_failed', url);
        assert.equal(error.errors[0].code, 'url_not_allowed', url);
        assert.equal(error.errors[0].path, 'url', url);
      }

      for (const path of ['/media/huge.png', '/media/endless.png']) {
        const result = await call(`${fake.url}${path}`);
        assert.equal(result.isError, true, path);
        assert.equal(problemOf(result).status, 413, path);
        assert.equal(problemOf(result).code, 'payload_too_large', path);
      }

      const wrongType = await call(`${fake.url}/media/notes.png`);
      assert.equal(wrongType.isError, true);
      assert.equal(problemOf(wrongType).status, 415);
      assert.equal(problemOf(wrongType).code, 'unsupported_media_type');

      const missing = await call(`${fake.url}/media/missing.png`);
      assert.equal(missing.isError, true);
      assert.equal(problemOf(missing).code, 'validation_failed');
      assert.equal(problemOf(missing).errors[0].code, 'fetch_failed');
    });
  });
}
