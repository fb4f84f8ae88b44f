import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { PlatformError } from '../../src/errors.ts';
import { platformFetch, readJson } from '../../src/http/fetch.ts';
import { plainFetch } from '../../src/http/fetch-like.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A server whose routes answer as real hosts do (declared lengths, chunked, gzip, redirects, cut-offs). */
describe('plainFetch: keep-alive transport with fetch behaviour', () => {
  const seen: Seen[] = [];
  let base = '';
  let other = '';
  const sockets = new Set<unknown>();
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
    '/json': (_req, res) => {
      const text = JSON.stringify({ ok: true });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
    '/chunked': (_req, res) => {
      res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-many': ['a', 'b'] });
      res.write('{"ok":');
      res.end('true}');
    },
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 40; i++) res.write('x'.repeat(4096));
      res.end();
    },
    '/gzip': (_req, res) => {
      const packed = gzipSync(JSON.stringify({ packed: true }));
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.byteLength });
      res.end(packed);
    },
    '/empty': (_req, res) => {
      res.writeHead(204).end();
    },
    '/see-other': (_req, res) => {
      res.writeHead(303, { location: '/json' }).end();
    },
    '/temporary': (_req, res) => {
      res.writeHead(307, { location: '/echo' }).end();
    },
    '/elsewhere': (_req, res) => {
      res.writeHead(302, { location: `${other}/echo` }).end();
    },
    '/echo': (req, res, body) => {
      const text = JSON.stringify({ method: req.method, body });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    },
    '/cut': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    '/slow': () => {
      // Never answers.
    },
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const path = new URL(req.url!, 'http://x').pathname;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      (routes[path] ?? ((_q, r) => r.writeHead(404).end()))(req, res, body);
    });
  };
  const server = createServer(handler);
  const second = createServer(handler);
  server.on('connection', (s) => sockets.add(s));

  before(async () => {
    for (const s of [server, second]) await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    other = `http://localhost:${(second.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    second.closeAllConnections();
    server.close();
    second.close();
  });

  it('sends a JSON body in one request with its headers, fetch’s defaults, and keeps the connection', async () => {
    seen.length = 0;
    const before = sockets.size;
    for (let i = 0; i < 3; i++) {
      const response = await plainFetch(`${base}/json?i=${i}`, {
        method: 'post',
        headers: { 'Content-Type': 'application/json', 'X-Token': 'secret' },
        body: JSON.stringify({ chat_id: 1 }),
      });
      assert.ok(response instanceof Response);
      assert.equal(response.status, 200);
      assert.equal(response.url, `${base}/json?i=${i}`);
      assert.equal(response.redirected, false);
      assert.deepEqual(await response.json(), { ok: true });
    }
    assert.equal(sockets.size - before, 1, 'one keep-alive connection for the three requests');
    const first = seen[0]!;
    assert.equal(first.method, 'POST');
    assert.equal(first.headers['content-type'], 'application/json');
    assert.equal(first.headers['x-token'], 'secret');
    assert.equal(first.headers['content-length'], String(Buffer.byteLength('{"chat_id":1}')));
    assert.equal(first.headers.accept, '*/*');
    assert.equal(first.body, '{"chat_id":1}');
  });

  it('gives string and form bodies fetch’s content types, and a bodiless POST a zero length', async () => {
    seen.length = 0;
    await (await plainFetch(`${base}/echo`, { method: 'POST', body: 'hello' })).text();
    await (
      await plainFetch(`${base}/echo`, { method: 'POST', body: new URLSearchParams({ a: '1 2' }) })
    ).text();
    await (await plainFetch(`${base}/echo`, { method: 'POST' })).text();
    assert.equal(seen[0]!.headers['content-type'], 'text/plain;charset=UTF-8');
    assert.equal(seen[1]!.headers['content-type'], 'application/x-www-form-urlencoded;charset=UTF-8');
    assert.equal(seen[1]!.body, 'a=1+2');
    assert.equal(seen[2]!.headers['content-length'], '0');
  });

  it('reads chunked, large and gzip replies as fetch does; status text and repeated headers kept', async () => {
    const chunked = await plainFetch(`${base}/chunked`);
    assert.equal(chunked.status, 201);
    assert.equal(chunked.statusText, 'Made');
    assert.equal(chunked.headers.get('x-many'), 'a, b');
    assert.deepEqual(await chunked.json(), { ok: true });
    const big = await plainFetch(`${base}/big`);
    assert.equal((await big.text()).length, 40 * 4096);
    const gzip = await plainFetch(`${base}/gzip`);
    assert.deepEqual(await gzip.json(), { packed: true });
    const empty = await plainFetch(`${base}/empty`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });

  it('a small reply read in full behaves as any Response: stream, clone, blob type, used once, and readJson takes its bytes', async () => {
    const streamed = await plainFetch(`${base}/json`);
    assert.ok(streamed instanceof Response);
    assert.equal(streamed.bodyUsed, false);
    const copy = streamed.clone();
    assert.equal(copy.url, `${base}/json`);
    const reader = streamed.body!.getReader();
    let text = '';
    for (let read = await reader.read(); !read.done; read = await reader.read())
      text += Buffer.from(read.value).toString();
    assert.equal(text, '{"ok":true}');
    assert.equal(streamed.bodyUsed, true);
    await assert.rejects(streamed.text(), TypeError);
    assert.deepEqual(await copy.json(), { ok: true });
    const blob = await (await plainFetch(`${base}/json`)).blob();
    assert.equal(blob.type, 'application/json');
    assert.equal(await blob.text(), '{"ok":true}');
    const bytes = await (await plainFetch(`${base}/json`)).arrayBuffer();
    assert.equal(Buffer.from(bytes).toString(), '{"ok":true}');
    assert.deepEqual(await readJson(await platformFetch(`${base}/json`)), { ok: true });
  });

  it('follows redirects with fetch’s method rules and drops credentials across origins', async () => {
    seen.length = 0;
    const seeOther = await plainFetch(`${base}/see-other`, { method: 'POST', body: 'x' });
    assert.equal(seeOther.url, `${base}/json`);
    assert.equal(seeOther.redirected, true);
    assert.equal(seen[1]!.method, 'GET');
    const temporary = await plainFetch(`${base}/temporary`, { method: 'POST', body: 'kept' });
    assert.deepEqual(await temporary.json(), { method: 'POST', body: 'kept' });
    seen.length = 0;
    await (await plainFetch(`${base}/elsewhere`, { headers: { authorization: 'Bearer t' } })).text();
    assert.equal(seen[0]!.headers.authorization, 'Bearer t');
    assert.equal(seen[1]!.headers.authorization, undefined);
    const manual = await plainFetch(`${base}/see-other`, { redirect: 'manual' });
    assert.equal(manual.status, 303);
    assert.equal(manual.headers.get('location'), '/json');
    await assert.rejects(plainFetch(`${base}/see-other`, { redirect: 'error' }), TypeError);
  });

  it('through platformFetch: the cap, a cut-off reply, timeouts and refused connections keep their errors', async () => {
    await assert.rejects(
      async () => readJson(await platformFetch(`${base}/big`, { maxReplyBytes: 1000 })),
      (error: unknown) => error instanceof PlatformError && error.code === 'platform_unavailable',
    );
    await assert.rejects(
      async () => readJson(await platformFetch(`${base}/chunked`, { maxReplyBytes: 5 })),
      (error: unknown) => error instanceof PlatformError && error.code === 'platform_unavailable',
    );
    await assert.rejects(
      async () => readJson(await platformFetch(`${base}/cut`)),
      (error: unknown) => error instanceof PlatformError && error.code === 'network_error',
    );
    await assert.rejects(
      platformFetch(`${base}/slow`, { timeoutMs: 50 }),
      (error: unknown) => error instanceof PlatformError && error.code === 'timeout' && error.retryable,
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(
      platformFetch(`${base}/slow`, { signal: controller.signal }),
      (error: unknown) => error instanceof PlatformError && error.code === 'timeout' && !error.retryable,
    );
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await assert.rejects(
      platformFetch(`http://127.0.0.1:${port}/`),
      (error: unknown) => error instanceof PlatformError && error.code === 'network_error',
    );
  });

  it('a caller’s signal rejects with its reason, as fetch does', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(plainFetch(`${base}/slow`, { signal: controller.signal }), (e) => e === reason);
    await assert.rejects(
      plainFetch(`${base}/json`, { signal: AbortSignal.abort(reason) }),
      (e) => e === reason,
    );
  });

  it('lets an idle connection go before the time the server announced (Keep-Alive: timeout), not reusing it as the server closes it', async () => {
    // This server keeps idle connections for 30 s but announces 2: a client must believe the
    // announcement (a real server closes then, and a request sent on the closing socket fails).
    let connections = 0;
    const announcing = createServer((_req, res) => {
      res.writeHead(200, { 'content-length': '2', 'keep-alive': 'timeout=2' }).end('ok');
    });
    announcing.keepAliveTimeout = 30_000;
    announcing.on('connection', () => connections++);
    await new Promise<void>((r) => announcing.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(announcing.address() as AddressInfo).port}/`;
    try {
      assert.equal(await (await plainFetch(url)).text(), 'ok');
      assert.equal(await (await plainFetch(url)).text(), 'ok');
      assert.equal(connections, 1, 'reused at once');
      // Node's agent lets a socket go a second before the announced timeout.
      await new Promise((r) => setTimeout(r, 1_300));
      assert.equal(await (await plainFetch(url)).text(), 'ok');
      assert.equal(connections, 2, 'a new connection after the announced idle time');
    } finally {
      announcing.closeAllConnections();
      announcing.close();
    }
  });

  it('hands what it does not take on to global fetch: form data, and a global fetch someone replaced', async () => {
    seen.length = 0;
    const form = new FormData();
    form.set('field', 'value');
    const echoed = (await (await plainFetch(`${base}/echo`, { method: 'POST', body: form })).json()) as {
      body: string;
    };
    assert.match(echoed.body, /name="field"\r\n\r\nvalue/);
    assert.match(String(seen[0]!.headers['content-type']), /^multipart\/form-data; boundary=/);
    const original = globalThis.fetch;
    let called = 0;
    globalThis.fetch = async (input, init) => {
      called++;
      return original(input, init);
    };
    try {
      await (await plainFetch(`${base}/json`)).text();
    } finally {
      globalThis.fetch = original;
    }
    assert.equal(called, 1);
  });
});
