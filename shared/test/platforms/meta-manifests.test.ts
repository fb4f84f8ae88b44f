import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { facebookModule } from '../../src/platforms/facebook/index.ts';
import { instagramModule } from '../../src/platforms/instagram/index.ts';
import { linkedInModule } from '../../src/platforms/linkedin/index.ts';

describe('LinkedIn, Facebook and Instagram manifests', () => {
  for (const module of [linkedInModule, facebookModule, instagramModule]) {
    it(`${module.id}: links to its docs page, draws one inline SVG path, connects by OAuth`, () => {
      const manifest = module.manifest!;
      assert.equal(manifest.id, module.id);
      assert.ok(existsSync(new URL(`../../../${manifest.docs}`, import.meta.url)), manifest.docs);
      assert.match(
        manifest.icon,
        /^<svg [^>]*viewBox="0 0 24 24"[^>]*><path d="[-0-9.,a-zA-Z ]+"\/><\/svg>$/,
      );
      assert.equal(manifest.connect.method, 'oauth');
      assert.equal(module.createConnector?.({}).configured, false);
      const names = Object.keys((module.create({}).optionsSchema as unknown as { shape: object }).shape);
      assert.deepEqual(
        manifest.options.map((o) => o.name),
        names,
      );
    });
  }
});
