import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';

const apiKey = { SERVICE_API_KEY: 'k'.repeat(32) };

describe('publish concurrency settings', () => {
  it('reads per-platform and per-credential overrides, ignoring empty ones', () => {
    const { limits } = loadConfig({
      ...apiKey,
      PUBLISH_CONCURRENCY_TELEGRAM: '50',
      PUBLISH_CONCURRENCY_DISCORD: '',
      PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: '20',
      UNRELATED: '3',
    });
    assert.deepEqual([...limits.platformLimits], [['telegram', 50]]);
    assert.deepEqual([...limits.credentialLimits], [['telegram', 20]]);
  });

  it('refuses values that are not positive whole numbers', () => {
    for (const value of ['0', '-1', '2.5', 'many']) {
      assert.throws(
        () => loadConfig({ ...apiKey, PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: value }),
        (error: unknown) =>
          error instanceof ConfigError && error.message.includes('PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM'),
      );
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('takes a short token with a start-up warning (the contract sets no minimum)', () => {
    const config = loadConfig({ ...apiKey, METRICS_TOKEN: 'metrics' });
    assert.equal(config.metricsToken, 'metrics');
    assert.ok(config.warnings.some((w) => /^METRICS_TOKEN is shorter than 16/.test(w)));
    assert.deepEqual(loadConfig({ ...apiKey, METRICS_TOKEN: 'm'.repeat(16) }).warnings, []);
  });
});
