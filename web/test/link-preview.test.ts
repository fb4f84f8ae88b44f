import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from './helpers/app.ts';
import { Client, userWithToken } from './helpers/client.ts';
import { backends } from './helpers/databases.ts';

/**
 * `POST /api/v1/link-preview`: the composer's link cards. The page is a user-chosen
 * URL, so it is fetched through the SSRF-safe fetch; ALLOW_PRIVATE_HOSTS names the local site.
 */

interface Site {
  port: number;
  origin: string;
  hits: string[];
  close(): Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Site> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const html = (head: string, body = '<p>Hello</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

const pages: Record<string, { type: string; body: string | (() => string) }> = {
  '/article': {
    type: 'text/html; charset=utf-8',
    body: html(`
      <title>Fallback title</title>
      <meta property="og:title" content="Launch day &amp; more">
      <meta property="og:description" content="What we shipped">
      <meta property="og:image" content="/img/card.png">
      <meta property="og:site_name" content="Example Blog">
      <meta name="twitter:title" content="Twitter title (not used)">`),
  },
  '/twitter-only': {
    type: 'text/html',
    body: html(`
      <meta name="twitter:title" content="From Twitter tags">
      <meta name="twitter:description" content="Card text">
      <meta name="twitter:image" content="https://cdn.example.com/t.png">`),
  },
  '/plain': {
    type: 'text/html',
    body: html('<title>  Just a title\n</title><meta name="description" content="Meta description">'),
  },
  '/hostile': {
    type: 'text/html',
    body: html(`
      <meta property="og:title" content="${'x'.repeat(5000)}\u0007">
      <meta property="og:image" content="javascript:alert(1)">`),
  },
  // Tags in the body are not the page's card (and a large body is never read).
  '/big': {
    type: 'text/html',
    body: () =>
      html(
        '<meta property="og:title" content="Big page">',
        `${'<p>filler</p>'.repeat(100_000)}<meta property="og:description" content="late">`,
      ),
  },
  '/json': { type: 'application/json', body: '{"title":"not a page"}' },
};

for (const backend of backends()) {
  describe(`link previews (${backend})`, () => {
    let app: RunningApp;
    let site: Site;
    let internal: Site;
    let api: Client;
    before(async () => {
      site = await serve((req, res) => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/moved') return res.writeHead(302, { location: '/article' }).end();
        if (path === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('nope');
        if (path === '/slow') return; // never answers
        const page = pages[path];
        if (!page)
          return res.writeHead(200, { 'content-type': 'text/html' }).end(html(`<title>${path}</title>`));
        res.writeHead(200, { 'content-type': page.type });
        res.end(typeof page.body === 'function' ? page.body() : page.body);
      });
      // Not in ALLOW_PRIVATE_HOSTS: an internal service the preview must never reach.
      internal = await serve((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(html('<title>secret</title>')),
      );
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: `127.0.0.1:${site.port}` });
      api = (await userWithToken(app.url, 'preview')).api;
    });
    after(async () => {
      await app?.stop();
      await site?.close();
      await internal?.close();
    });

    const preview = (client: Client, url: unknown) => client.json('/api/v1/link-preview', { json: { url } });

    test('Open Graph tags make the card; a relative image is resolved against the page', async () => {
      const res = await preview(api, `${site.origin}/article#section`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, {
        url: `${site.origin}/article`,
        title: 'Launch day & more',
        description: 'What we shipped',
        image: `${site.origin}/img/card.png`,
        siteName: 'Example Blog',
      });
    });

    test('Twitter tags, then the title and meta description, fill in when Open Graph is missing', async () => {
      const twitter = await preview(api, `${site.origin}/twitter-only`);
      assert.deepEqual(twitter.body, {
        url: `${site.origin}/twitter-only`,
        title: 'From Twitter tags',
        description: 'Card text',
        image: 'https://cdn.example.com/t.png',
      });
      const plain = await preview(api, `${site.origin}/plain`);
      assert.deepEqual(plain.body, {
        url: `${site.origin}/plain`,
        title: 'Just a title',
        description: 'Meta description',
      });
    });

    test('hostile values are cleaned: length capped, control characters dropped, script URLs ignored', async () => {
      const res = await preview(api, `${site.origin}/hostile`);
      assert.equal(res.status, 200);
      assert.ok(res.body.title.length <= 200);
      assert.doesNotMatch(res.body.title, /\u0007/);
      assert.equal(res.body.image, undefined);
    });

    test('only the head is read: tags after it do not count, and a large page still answers', async () => {
      const res = await preview(api, `${site.origin}/big`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { url: `${site.origin}/big`, title: 'Big page' });
    });

    test('redirects are followed and the card links to the final page', async () => {
      const res = await preview(api, `${site.origin}/moved`);
      assert.equal(res.status, 200);
      assert.equal(res.body.url, `${site.origin}/article`);
      assert.equal(res.body.title, 'Launch day & more');
    });

    test('results are cached: asking again does not fetch the page again', async () => {
      const before = site.hits.filter((h) => h === '/cached').length;
      assert.equal((await preview(api, `${site.origin}/cached`)).status, 200);
      assert.equal((await preview(api, `${site.origin}/cached`)).status, 200);
      assert.equal(site.hits.filter((h) => h === '/cached').length, before + 1);
    });

    test('private, loopback and metadata addresses are refused with 422 and nothing is sent', async () => {
      for (const url of [
        `http://127.0.0.1:${internal.port}/`,
        `http://localhost:${internal.port}/`,
        'http://169.254.169.254/latest/meta-data/',
        'https://10.0.0.1/',
        'https://[::1]/',
      ]) {
        const res = await preview(api, url);
        assert.equal(res.status, 422, url);
        assert.equal(res.headers.get('content-type'), 'application/problem+json');
        assert.equal(res.body.code, 'validation_failed');
        assert.equal(res.body.errors[0].code, 'url_not_allowed', url);
      }
      assert.deepEqual(internal.hits, []);
    });

    test('non-HTML, missing pages, timeouts and bad URLs are 422 with a reason', async () => {
      const cases: [unknown, string][] = [
        [`${site.origin}/json`, 'not_html'],
        [`${site.origin}/missing`, 'fetch_failed'],
        ['not a url', 'invalid_url'],
        ['ftp://example.com/file', 'invalid_url'],
      ];
      for (const [url, code] of cases) {
        const res = await preview(api, url);
        assert.equal(res.status, 422, String(url));
        assert.equal(res.body.errors[0].code, code, String(url));
      }
      const started = Date.now();
      const slow = await preview(api, `${site.origin}/slow`);
      assert.equal(slow.status, 422);
      assert.equal(slow.body.errors[0].code, 'timeout');
      assert.ok(Date.now() - started < 15_000);
    });

    test('a malformed body is 400; no credentials is 401', async () => {
      assert.equal((await preview(api, 42)).status, 400);
      assert.equal(
        (
          await api.json('/api/v1/link-preview', {
            method: 'POST',
            body: '{',
            headers: { 'content-type': 'application/json' },
          })
        ).status,
        400,
      );
      const anonymous = await preview(new Client(app.url), `${site.origin}/article`);
      assert.equal(anonymous.status, 401);
    });

    test('each user may ask 30 times a minute; then 429 with Retry-After', async () => {
      const { api: busy } = await userWithToken(app.url, 'busy');
      for (let i = 0; i < 30; i++) {
        assert.equal((await preview(busy, `${site.origin}/page-${i}`)).status, 200, `request ${i}`);
      }
      const limited = await preview(busy, `${site.origin}/page-30`);
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'rate_limited');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      // Another user is not affected, and cached answers cost nothing.
      assert.equal((await preview(api, `${site.origin}/page-30`)).status, 200);
      assert.equal((await preview(busy, `${site.origin}/page-0`)).status, 200);
    });

    test('the route is in the OpenAPI document', async () => {
      const doc = await new Client(app.url).json('/openapi.json');
      const op = doc.body.paths['/api/v1/link-preview']?.post;
      assert.equal(op?.operationId, 'linkPreview');
      assert.ok(op.responses['422']);
    });
  });
}
