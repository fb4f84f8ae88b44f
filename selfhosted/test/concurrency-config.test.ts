import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../src/config.ts';
import { concurrencyOverrides } from '../src/services.ts';

describe('publish concurrency settings', () => {
  it('reads per-platform and per-credential overrides, ignoring empty ones', () => {
    const env = {
      PUBLISH_CONCURRENCY_TELEGRAM: '50',
      PUBLISH_CONCURRENCY_DISCORD: '',
      PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: '20',
      UNRELATED: '3',
    };
    assert.deepEqual([...concurrencyOverrides(env)], [['telegram', 50]]);
    assert.deepEqual([...concurrencyOverrides(env, 'PUBLISH_CREDENTIAL_CONCURRENCY_')], [['telegram', 20]]);
  });

  it('refuses values that are not positive whole numbers', () => {
    for (const value of ['0', '-1', '2.5', 'many']) {
      assert.throws(
        () =>
          concurrencyOverrides(
            { PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM: value },
            'PUBLISH_CREDENTIAL_CONCURRENCY_',
          ),
        (error: unknown) =>
          error instanceof ConfigError && error.message.includes('PUBLISH_CREDENTIAL_CONCURRENCY_TELEGRAM'),
      );
    }
  });
});
