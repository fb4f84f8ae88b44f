import assert from 'node:assert/strict';
import { it } from 'node:test';
import { platformManifests } from '../../src/platforms/manifests.ts';
import { platformModules } from '../../src/platforms/registry.ts';

/**
 * Platform ids name env variables (`PUBLISH_RATE_<PLATFORM>_<SCOPE>`), URL path segments and
 * docs pages, so they are lower-case ASCII words with underscores (contract section C).
 */
it('every platform id matches ^[a-z][a-z0-9_]*$ and is unique', () => {
  const ids = platformModules.map((m) => m.id);
  for (const id of ids) assert.match(id, /^[a-z][a-z0-9_]*$/, id);
  assert.equal(new Set(ids).size, ids.length);
  for (const module of platformModules) assert.equal(module.manifest.id, module.id);
  assert.deepEqual(
    platformManifests.map((m) => m.id),
    ids,
  );
});
