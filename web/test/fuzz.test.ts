import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { samplePng } from '@postwave/shared/testing';
import {
  type FuzzRoute,
  formatTally,
  fuzzHttp,
  fuzzRuns,
  fuzzSeed,
} from '../../shared/test/support/http-fuzz.ts';
import { webDir } from '../scripts/next-build.ts';
import { userWithToken } from './helpers/client.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from './helpers/fixtures.ts';

/**
 * No input yields a 5xx or a stack trace. Every route handler and page under web/app
 * (found on disk, so new routes are fuzzed without editing this list), with generated and
 * mutated bodies, hostile path parameters, queries and headers, signed in half the time. A fixed
 * seed: 200 cases in `npm test`; `npm run fuzz` runs FUZZ_RUNS=10000. FUZZ_SEED replays another.
 */

const methodsIn = (source: string): string[] => {
  const found = new Set<string>();
  for (const m of source.matchAll(/\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)) found.add(m[1]!);
  return found.size ? [...found] : ['GET', 'POST'];
};

function appRoutes(): FuzzRoute[] {
  const appDir = join(webDir, 'app');
  const routes: FuzzRoute[] = [];
  for (const entry of readdirSync(appDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/^(route\.ts|page\.tsx)$/.test(entry.name)) continue;
    const dir = relative(appDir, entry.parentPath);
    const path = `/${dir
      .split('/')
      .filter((s) => s && !/^\(.*\)$/.test(s))
      .map((s) => (s.startsWith('[') ? `{${s.replace(/[[\].]/g, '')}}` : s))
      .join('/')}`;
    const methods =
      entry.name === 'page.tsx'
        ? ['GET']
        : methodsIn(readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    for (const method of methods) routes.push({ method, path });
  }
  return routes;
}

describe('Scheduler under fuzzed requests', () => {
  let env: TelegramApp;
  let credentials: Record<string, string>;
  let samples: Record<string, { sample: unknown; bodyKind?: FuzzRoute['bodyKind'] }>;
  before(async () => {
    env = await startTelegramApp('pglite');
    const { api, session } = await userWithToken(env.app.url, 'fuzz');
    const accountId = await connectTelegram(session);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'a.png');
    const media = (await api.json('/api/v1/upload', { method: 'POST', body: form })).body.media;
    const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    credentials = { authorization: `Bearer ${api.token}`, cookie, origin: env.app.url };
    const post = { message: 'fuzz', accountIds: [accountId], postingMode: 'draft', media: [media] };
    samples = {
      '/api/v1/posts': { sample: post },
      '/api/v1/posts/{id}': { sample: { message: 'x', postingMode: 'draft' } },
      '/api/v1/validation': { sample: post },
      '/api/v1/upload/presign': { sample: { filename: 'a.png', contentType: 'image/png', size: 10 } },
      '/api/v1/tokens': { sample: { name: 'fuzz' } },
      '/api/v1/accounts': { sample: { platform: 'telegram', platformAccountId: '@news', credentials: {} } },
      '/api/v1/accounts/{id}': { sample: { label: 'x' } },
      '/api/auth/signup': { sample: { email: 'fuzz@example.com', password: 'correct horse battery' } },
      '/api/auth/password-reset': { sample: { email: 'fuzz@example.com' } },
      '/api/auth/password-reset/confirm': { sample: { token: 'x', password: 'correct horse battery' } },
      '/api/oauth/register': {
        sample: {
          client_name: 'x',
          redirect_uris: ['http://127.0.0.1:9/cb'],
          token_endpoint_auth_method: 'none',
        },
      },
      '/api/oauth/token': {
        sample: { grant_type: 'authorization_code', code: 'x', code_verifier: 'y' },
        bodyKind: 'form',
      },
      '/api/oauth/revoke': { sample: { token: 'x' }, bodyKind: 'form' },
      '/api/oauth/authorize/decision': { sample: { decision: 'approve' }, bodyKind: 'form' },
      '/api/cli/authorize': { sample: { code: 'x', code_verifier: 'y' } },
      '/api/cli/authorize/decision': { sample: { decision: 'approve' }, bodyKind: 'form' },
      '/mcp': { sample: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
    };
  });
  after(() => env?.stop());

  test('no 5xx and no stack trace on any route', { timeout: 3_600_000 }, async () => {
    const routes = appRoutes().map((r) => ({ ...r, ...samples[r.path] }));
    assert.ok(routes.length >= 30, `routes: ${routes.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    const tally = await fuzzHttp({
      base: env.app.url,
      routes,
      credentials,
      numRuns: fuzzRuns(200),
      seed: fuzzSeed(),
    });
    console.log(formatTally('Scheduler', tally));
    assert.deepEqual(tally.failures.slice(0, 5), []);
  });
});
