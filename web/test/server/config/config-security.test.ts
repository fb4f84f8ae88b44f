import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../../server/config.ts';
import { getConfig } from '../../../server/context.ts';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'postwave-config-')), LOG_LEVEL: 'silent' });

test('ALLOW_PRIVATE_HOSTS and MAX_REPLY_BYTES are read once at start; bad values stop it', () => {
  const config = loadConfig({
    ...base(),
    ALLOW_PRIVATE_HOSTS: '127.0.0.1:8080, nas.lan',
    MAX_REPLY_BYTES: '1024',
  });
  assert.deepEqual(config.allowPrivateHosts, [
    { host: '127.0.0.1', port: '8080' },
    { host: 'nas.lan', port: undefined },
  ]);
  assert.equal(config.maxReplyBytes, 1024);
  assert.equal(loadConfig(base()).maxReplyBytes, 8 * 1024 * 1024);
  assert.throws(() => loadConfig({ ...base(), ALLOW_PRIVATE_HOSTS: 'http://x/' }), /ALLOW_PRIVATE_HOSTS/);
  assert.throws(() => loadConfig({ ...base(), MAX_REPLY_BYTES: '-5' }), /MAX_REPLY_BYTES/);
});

test('the retired POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK is named in a warning, never obeyed', () => {
  const config = loadConfig({ ...base(), POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK: 'true' });
  assert.deepEqual(config.allowPrivateHosts, []);
  assert.ok(config.warnings.some((w) => /POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK.*ALLOW_PRIVATE_HOSTS/.test(w)));
});

test('the configuration is never read while `next build` runs, so a build leaves no generated secrets', () => {
  const phase = process.env.NEXT_PHASE;
  process.env.NEXT_PHASE = 'phase-production-build';
  try {
    assert.throws(() => getConfig(), /never during `next build`/);
  } finally {
    if (phase === undefined) delete process.env.NEXT_PHASE;
    else process.env.NEXT_PHASE = phase;
  }
});

test('a short METRICS_TOKEN or DISPATCH_SECRET is taken with a warning (the contract sets no minimum)', () => {
  const config = loadConfig({ ...base(), METRICS_TOKEN: 'metrics', DISPATCH_SECRET: 'cron' });
  assert.equal(config.metricsToken, 'metrics');
  assert.equal(config.dispatchSecret, 'cron');
  assert.ok(config.warnings.some((w) => /^METRICS_TOKEN is shorter than 16/.test(w)));
  assert.ok(config.warnings.some((w) => /^DISPATCH_SECRET is shorter than 16/.test(w)));
  const strong = loadConfig({ ...base(), METRICS_TOKEN: 'm'.repeat(16), DISPATCH_SECRET: 'd'.repeat(32) });
  assert.ok(!strong.warnings.some((w) => /METRICS_TOKEN|DISPATCH_SECRET/.test(w)));
});
