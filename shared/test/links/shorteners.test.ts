import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSafeFetch, parseAllowedPrivateHosts, plainFetch } from '../../src/http/index.ts';
import { createShortener, ShortenerError, type ShortenerProvider } from '../../src/links/index.ts';
import {
  type FakeDub,
  type FakeKutt,
  type FakeShlink,
  startFakeDub,
  startFakeKutt,
  startFakeShlink,
} from '../fakes/shorteners.ts';

type Fake = FakeShlink | FakeDub | FakeKutt;

const cases: { provider: ShortenerProvider; start: () => Promise<Fake>; key: string; createPath: RegExp }[] =
  [
    {
      provider: 'shlink',
      start: () => startFakeShlink(['shlink-key']),
      key: 'shlink-key',
      createPath: /short-urls$/,
    },
    { provider: 'dub', start: () => startFakeDub(['dub_key']), key: 'dub_key', createPath: /^\/links$/ },
    {
      provider: 'kutt',
      start: () => startFakeKutt(['kutt-key']),
      key: 'kutt-key',
      createPath: /api\/v2\/links$/,
    },
  ];

async function refusal(work: Promise<unknown>): Promise<ShortenerError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof ShortenerError, String(error));
    return error;
  }
  assert.fail('expected a ShortenerError');
}

for (const c of cases) {
  describe(`${c.provider} shortener client against its fake`, () => {
    let fake: Fake;
    before(async () => {
      fake = await c.start();
    });
    after(() => fake?.close());
    const client = (over: { apiKey?: string; domain?: string; timeoutMs?: number } = {}) =>
      createShortener(
        {
          provider: c.provider,
          apiUrl: `${fake.url}/`,
          apiKey: over.apiKey ?? c.key,
          ...(over.domain ? { domain: over.domain } : {}),
        },
        { fetch: plainFetch, ...(over.timeoutMs ? { timeoutMs: over.timeoutMs } : {}) },
      );

    test('shortens, with the documented request, and reads the clicks back', async () => {
      const link = await client().shorten('https://ex.com/a?utm_source=x');
      assert.match(link.shortUrl, /^https:\/\//);
      const created = fake.creations.at(-1)!;
      assert.match(created.path, c.createPath);
      const sent = created.body as Record<string, unknown>;
      const longField = { shlink: 'longUrl', dub: 'url', kutt: 'target' }[c.provider];
      assert.equal(sent[longField], 'https://ex.com/a?utm_source=x');
      assert.equal(await client().clicks(link.ref), 0);
      fake.click(link.shortUrl, 3);
      assert.equal(await client().clicks(link.ref), 3);
    });

    test('a custom domain is sent and used', async () => {
      const link = await client({ domain: 'go.example' }).shorten('https://ex.com/d');
      assert.ok(link.shortUrl.startsWith('https://go.example/'), link.shortUrl);
      assert.equal((fake.creations.at(-1)!.body as { domain?: string }).domain, 'go.example');
    });

    test('a wrong key is invalid_key (401), without echoing the key', async () => {
      const error = await refusal(client({ apiKey: 'wrong-secret-key' }).shorten('https://ex.com/'));
      assert.equal(error.code, 'invalid_key');
      assert.equal(error.status, 401);
      assert.ok(!error.message.includes('wrong-secret-key'));
    });

    test('an invalid URL is invalid_url with the provider’s words', async () => {
      const error = await refusal(client().shorten('not a url'));
      assert.equal(error.code, 'invalid_url');
      assert.ok(error.status === 400 || error.status === 422);
      assert.ok(error.message.length > 30, error.message);
    });

    test('429 is rate_limited with Retry-After; 503 unavailable; a slow answer times out', async () => {
      fake.server.inject({
        status: 429,
        headers: { 'retry-after': '17' },
        json: { error: 'Too many requests' },
      });
      const limited = await refusal(client().shorten('https://ex.com/r'));
      assert.equal(limited.code, 'rate_limited');
      assert.equal(limited.retryAfter, 17);
      fake.server.inject({ status: 503, text: 'Service Unavailable' });
      assert.equal((await refusal(client().shorten('https://ex.com/r'))).code, 'unavailable');
      fake.server.inject({ delayMs: 1_000, json: {} });
      assert.equal((await refusal(client({ timeoutMs: 100 }).shorten('https://ex.com/r'))).code, 'timeout');
    });

    test('an unknown link’s clicks are not_found', async () => {
      assert.equal((await refusal(client().clicks('nope'))).code, 'not_found');
    });

    test('through the SSRF-safe fetch: loopback refused unless allowed', async () => {
      const settings = { provider: c.provider, apiUrl: fake.url, apiKey: c.key };
      const before = fake.server.requests.length;
      const refused = await refusal(
        createShortener(settings, { fetch: createSafeFetch() }).shorten('https://ex.com/'),
      );
      assert.equal(refused.code, 'unreachable');
      assert.equal(fake.server.requests.length, before, 'nothing reached the host');
      const host = new URL(fake.url).host;
      const allowed = createSafeFetch({ allowPrivateHosts: parseAllowedPrivateHosts(host) });
      const link = await createShortener(settings, { fetch: allowed }).shorten('https://ex.com/ok');
      assert.match(link.shortUrl, /^https:\/\//);
    });
  });
}
