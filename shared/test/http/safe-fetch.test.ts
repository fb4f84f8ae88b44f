import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { PlatformError } from '../../src/errors.ts';
import {
  blockedReason,
  createSafeFetch,
  parseAllowedPrivateHosts,
  platformFetch,
  readJsonCapped,
  UnsafeUrlError,
} from '../../src/http/index.ts';

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

describe('ALLOW_PRIVATE_HOSTS', () => {
  test('parses host and host:port entries, IPv6 in brackets', () => {
    assert.deepEqual(parseAllowedPrivateHosts(' 127.0.0.1:8080, nas.lan ,[::1]:9000,'), [
      { host: '127.0.0.1', port: '8080' },
      { host: 'nas.lan', port: undefined },
      { host: '::1', port: '9000' },
    ]);
    assert.deepEqual(parseAllowedPrivateHosts(undefined), []);
    assert.throws(() => parseAllowedPrivateHosts('http://x/'), /ALLOW_PRIVATE_HOSTS/);
    assert.throws(() => parseAllowedPrivateHosts('x:99999'), /port/);
  });
});

describe('SSRF guard: fetching', () => {
  let server: Server;
  let base: string;
  let port: number;
  const seen: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      if (req.url === '/ok.png')
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('png-bytes'));
      else if (req.url === '/to-metadata')
        res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      else if (req.url === '/to-ok') res.writeHead(302, { location: '/ok.png' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/echo') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () =>
          res.writeHead(201, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              method: req.method,
              type: req.headers['content-type'],
              body: Buffer.concat(chunks).toString(),
            }),
          ),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
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
  const strict = createSafeFetch();
  const allowed = createSafeFetch({ allowPrivateHosts: parseAllowedPrivateHosts('127.0.0.1') });

  test('https only, no credentials, default port, no private hosts; nothing is sent', async () => {
    seen.length = 0;
    assert.equal(await code(strict(`${base}/ok.png`)), 'url_not_allowed');
    assert.equal(await code(strict('https://127.0.0.1/ok.png')), 'url_not_allowed');
    assert.equal(await code(strict('https://u:p@example.com/x')), 'url_not_allowed');
    assert.equal(await code(strict('file:///etc/passwd')), 'url_not_allowed');
    assert.equal(await code(strict('not a url')), 'invalid_url');
    const publicHost = createSafeFetch({ resolve: async () => [{ address: '93.184.215.14', family: 4 }] });
    assert.equal(await code(publicHost('https://example.com:8443/x')), 'url_not_allowed');
    assert.equal(await code(publicHost('http://example.com/x')), 'url_not_allowed');
    assert.deepEqual(seen, []);
  });

  test('a host name that resolves to any private address is refused (DNS is checked, then pinned)', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    assert.equal(await code(createSafeFetch({ resolve })('https://rebind.example/x.png')), 'url_not_allowed');
    const metadata = async () => [{ address: 'fd00:ec2::254', family: 6 }];
    assert.equal(
      await code(createSafeFetch({ resolve: metadata })('https://meta.example/x')),
      'url_not_allowed',
    );
    const cgnat = async () => [{ address: '100.64.1.1', family: 4 }];
    assert.equal(
      await code(createSafeFetch({ resolve: cgnat })('https://cgnat.example/x')),
      'url_not_allowed',
    );
  });

  test('the allow-list admits a listed host (any port, or only the listed port)', async () => {
    const ok = await allowed(`${base}/to-ok`);
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('content-type'), 'image/png');
    assert.equal(await ok.text(), 'png-bytes');
    assert.equal(ok.url, `${base}/ok.png`);
    const portOnly = createSafeFetch({ allowPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${port}`) });
    assert.equal((await portOnly(`${base}/ok.png`)).status, 200);
    const otherPort = createSafeFetch({
      allowPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${port + 1}`),
    });
    assert.equal(await code(otherPort(`${base}/ok.png`)), 'url_not_allowed');
  });

  test('redirects are re-checked at every hop; loops end', async () => {
    assert.equal(await code(allowed(`${base}/to-metadata`)), 'url_not_allowed');
    assert.equal(await code(allowed(`${base}/loop`)), 'fetch_failed');
    assert.equal((await allowed(`${base}/missing`)).status, 404);
  });

  test('sends methods, headers and bodies like fetch (JSON and multipart)', async () => {
    const json = await allowed(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: 1 }),
    });
    assert.deepEqual(await json.json(), { method: 'POST', type: 'application/json', body: '{"a":1}' });
    const form = new FormData();
    form.set('file', new Blob(['abc'], { type: 'text/plain' }), 'a.txt');
    const multipart = (await (await allowed(`${base}/echo`, { method: 'POST', body: form })).json()) as {
      type: string;
      body: string;
    };
    assert.match(multipart.type, /^multipart\/form-data; boundary=/);
    assert.match(multipart.body, /filename="a.txt"/);
  });

  test('platformFetch turns a refusal into a permanent target_unreachable naming ALLOW_PRIVATE_HOSTS', async () => {
    await assert.rejects(platformFetch(`${base}/ok.png`, { fetch: strict }), (error: unknown) => {
      assert.ok(error instanceof PlatformError);
      assert.equal(error.code, 'target_unreachable');
      assert.equal(error.retryable, false);
      assert.match(error.message, /ALLOW_PRIVATE_HOSTS/);
      return true;
    });
    const body = await readJsonCapped(
      await platformFetch(`${base}/echo`, { fetch: allowed, method: 'PUT', body: 'x' }),
    );
    assert.deepEqual(body, { method: 'PUT', type: 'text/plain;charset=UTF-8', body: 'x' });
  });
});

test('plain http and other ports are refused before any DNS lookup', async () => {
  let asked = 0;
  const resolve = async () => {
    asked++;
    return [{ address: '93.184.215.14', family: 4 }];
  };
  const guarded = createSafeFetch({ resolve });
  await assert.rejects(
    guarded('http://example.com/x'),
    (e: unknown) => e instanceof UnsafeUrlError && e.code === 'url_not_allowed',
  );
  await assert.rejects(
    guarded('https://example.com:8443/x'),
    (e: unknown) => e instanceof UnsafeUrlError && e.code === 'url_not_allowed',
  );
  assert.equal(asked, 0);
});
