import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import {
  type FuzzRoute,
  formatTally,
  fuzzHttp,
  fuzzRuns,
  fuzzSeed,
} from '../../shared/test/support/http-fuzz.ts';
import { apiKey, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

/**
 * No input yields a 5xx or a stack trace. Every route of the OpenAPI document plus the
 * public ones, fuzzed with a fixed seed: 200 cases in `npm test`, FUZZ_RUNS (10,000 with
 * `npm run fuzz`) otherwise. FUZZ_SEED replays another sequence.
 */
describe('self-hosted server under fuzzed requests', () => {
  let server: TestServer;
  let telegram: Awaited<ReturnType<typeof fakeTelegram>>;
  let mediaKey = 'missing.png';
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'a.png');
    const uploaded = await server.api('/api/v1/upload', { method: 'POST', body: form });
    mediaKey = ((await uploaded.json()) as { media: { key: string } }).media.key;
  });
  after(async () => {
    await server?.close();
    await telegram?.close();
  });

  test('no 5xx and no stack trace on any route', { timeout: 3_600_000 }, async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const post = { message: 'hello', accountIds: ['tg-main'], postingMode: 'now' };
    const samples: Record<string, unknown> = {
      '/api/v1/posts': post,
      '/api/v1/validation': post,
      '/api/v1/upload/presign': { filename: 'a.png', contentType: 'image/png', size: 10 },
    };
    const routes: FuzzRoute[] = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete', 'head'].includes(m))
        .map((m) => ({
          method: m.toUpperCase(),
          path: path.replace(/:(\w+)/g, '{$1}'),
          sample: samples[path],
        })),
    );
    routes.push(
      { method: 'GET', path: `/media/${mediaKey}` },
      { method: 'GET', path: '/media/{key}' },
      { method: 'PUT', path: '/media/{key}' },
      { method: 'GET', path: '/docs' },
      { method: 'GET', path: '/{anything}/{else}' },
    );
    assert.ok(routes.length >= 8, `routes: ${routes.map((r) => r.path).join(', ')}`);
    const tally = await fuzzHttp({
      base: server.url,
      routes,
      credentials: { 'x-api-key': apiKey },
      numRuns: fuzzRuns(200),
      seed: fuzzSeed(),
    });
    console.log(formatTally('self-hosted', tally));
    assert.deepEqual(tally.failures.slice(0, 5), []);
  });
});
