import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublisherRegistry, platformModules } from '../../../src/platforms/registry.ts';
import { xModule } from '../../../src/platforms/x/index.ts';
import { xCredentialsSchema } from '../../../src/platforms/x/options.ts';

describe('X module', () => {
  it('is registered once, with a manifest and a connector', () => {
    assert.equal(platformModules.filter((m) => m.id === 'x').length, 1);
    const publisher = PublisherRegistry.fromEnv({}).get('x');
    assert.equal(publisher?.displayName, 'X');
    assert.equal(xModule.manifest?.id, 'x');
    assert.equal(xModule.manifest?.connect.method, 'oauth');
    assert.equal(xModule.createConnector?.({}).configured, false);
    assert.equal(xModule.createConnector?.({ X_CLIENT_ID: 'id', X_CLIENT_SECRET: 's' }).configured, true);
  });

  it('refuses malformed settings at start, naming the variable', () => {
    assert.throws(() => xModule.create({ X_API_URL: 'nope' }), /X_API_URL/);
    assert.throws(() => xModule.create({ X_OAUTH_AUTHORIZE_URL: 'ftp://x' }), /X_OAUTH_AUTHORIZE_URL/);
    assert.throws(
      () => xModule.create({ X_MEDIA_CHUNK_BYTES: String(6 * 1024 * 1024) }),
      /X_MEDIA_CHUNK_BYTES/,
    );
  });

  it('takes the documented accounts-file credentials', () => {
    assert.equal(xCredentialsSchema.safeParse({ accessToken: 't' }).success, true);
    assert.equal(
      xCredentialsSchema.safeParse({ accessToken: 't', refreshToken: 'r', clientId: 'c', clientSecret: 's' })
        .success,
      true,
    );
    assert.equal(xCredentialsSchema.safeParse({ refreshToken: 'r' }).success, false);
  });
});

describe('X manifest', () => {
  it('links to its docs page and draws one inline SVG path', async () => {
    const { existsSync } = await import('node:fs');
    const manifest = xModule.manifest!;
    assert.ok(existsSync(new URL(`../../../../${manifest.docs}`, import.meta.url)), manifest.docs);
    assert.match(manifest.icon, /^<svg [^>]*viewBox="0 0 24 24"[^>]*><path d="[-0-9.,a-zA-Z ]+"\/><\/svg>$/);
    assert.equal(manifest.name, 'X');
  });
});
