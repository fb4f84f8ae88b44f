import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { blockedReason, readSmallBody, safeFetch, UnsafeUrlError } from '#server/oauth/safe-fetch.ts';

describe('SSRF guard: address classification', () => {
  const refused = [
    '0.0.0.0',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.1.2.3',
    '169.254.169.254',
    '169.254.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
    '2002:7f00:1::',
    '64:ff9b::a9fe:a9fe',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    'fec0::1',
    '100::1',
    '2001::1',
    '[::1]',
    'not-an-ip',
  ];
  for (const address of refused) {
    test(`refuses ${address}`, () => assert.ok(blockedReason(address), address));
  }
  const allowed = [
    '1.1.1.1',
    '8.8.8.8',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
  ];
  for (const address of allowed) {
    test(`allows ${address}`, () => assert.equal(blockedReason(address), undefined, address));
  }
  test('names the metadata address as link-local', () =>
    assert.match(blockedReason('169.254.169.254')!, /metadata/));
});

describe('SSRF guard: fetching', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok.png')
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png-bytes'));
      else if (req.url === '/to-metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      else if (req.url === '/to-ok') res.writeHead(302, { location: '/ok.png' }).end();
      else if (req.url === '/big') res.writeHead(200, { 'content-length': '1000000' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const code = async (p: Promise<unknown>) => {
    try {
      await p;
      return 'ok';
    } catch (error) {
      assert.ok(error instanceof UnsafeUrlError, String(error));
      return error.code;
    }
  };

  test('https only, no credentials, default port, no private hosts (override off)', async () => {
    assert.equal(await code(safeFetch(`${base}/ok.png`, { maxBytes: 100 })), 'url_not_allowed');
    assert.equal(await code(safeFetch('https://127.0.0.1/ok.png', { maxBytes: 100 })), 'url_not_allowed');
    assert.equal(await code(safeFetch('https://u:p@example.com/x', { maxBytes: 100 })), 'url_not_allowed');
    assert.equal(await code(safeFetch('https://example.com:8443/x', { maxBytes: 100 })), 'url_not_allowed');
    assert.equal(await code(safeFetch('file:///etc/passwd', { maxBytes: 100 })), 'url_not_allowed');
    assert.equal(await code(safeFetch('not a url', { maxBytes: 100 })), 'invalid_url');
  });

  test('a host name that resolves to any private address is refused (DNS is checked, then pinned)', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    assert.equal(
      await code(safeFetch('https://rebind.example/x.png', { maxBytes: 100, resolve })),
      'url_not_allowed',
    );
    const metadata = async () => [{ address: 'fd00:ec2::254', family: 6 }];
    assert.equal(
      await code(safeFetch('https://meta.example/x', { maxBytes: 100, resolve: metadata })),
      'url_not_allowed',
    );
  });

  test('test override: fetches from a loopback fake, follows safe redirects, re-checks each hop', async () => {
    const ok = await safeFetch(`${base}/to-ok`, { maxBytes: 100, allowLoopback: true });
    assert.equal(ok.contentType, 'image/png');
    assert.equal(await readSmallBody(ok.body, 100), 'png-bytes');
    assert.equal(
      await code(safeFetch(`${base}/to-metadata`, { maxBytes: 100, allowLoopback: true })),
      'url_not_allowed',
    );
    assert.equal(await code(safeFetch(`${base}/big`, { maxBytes: 100, allowLoopback: true })), 'too_large');
    assert.equal(
      await code(safeFetch(`${base}/loop`, { maxBytes: 100, allowLoopback: true })),
      'fetch_failed',
    );
    assert.equal(
      await code(safeFetch(`${base}/missing`, { maxBytes: 100, allowLoopback: true })),
      'fetch_failed',
    );
  });
});
