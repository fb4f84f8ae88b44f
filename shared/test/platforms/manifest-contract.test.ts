import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { platformManifests } from '../../src/platforms/manifests.ts';
import { PublisherRegistry, platformModules } from '../../src/platforms/registry.ts';

/**
 * The manifest contract for every platform (contract section C), so a new platform folder that
 * breaks what the Scheduler renders and checks from it fails here rather than in a browser.
 */
describe('the manifest contract', () => {
  it('every platform id matches ^[a-z][a-z0-9_]*$ and is unique', () => {
    // Ids name env variables (`PUBLISH_RATE_<PLATFORM>_<SCOPE>`), URL path segments and docs pages.
    const ids = platformModules.map((m) => m.id);
    for (const id of ids) assert.match(id, /^[a-z][a-z0-9_]*$/, id);
    assert.equal(new Set(ids).size, ids.length);
    for (const module of platformModules) assert.equal(module.manifest.id, module.id);
    assert.deepEqual(
      platformManifests.map((m) => m.id),
      ids,
    );
  });

  it('showWhen and dependsOn name another field of the same platform', () => {
    for (const manifest of platformManifests) {
      const names = new Set(manifest.options.map((o) => o.name));
      for (const option of manifest.options) {
        const where = `${manifest.id}.${option.name}`;
        if (option.showWhen) {
          assert.ok(names.has(option.showWhen.field), `${where}: showWhen.field`);
          assert.notEqual(option.showWhen.field, option.name, where);
        }
        const dependsOn = option.choicesFrom?.dependsOn;
        if (dependsOn) assert.ok(names.has(dependsOn) && dependsOn !== option.name, `${where}: dependsOn`);
      }
    }
  });

  it('a field with choices from the platform has a publisher that loads them', () => {
    const publishers = PublisherRegistry.fromEnv({});
    for (const manifest of platformManifests) {
      for (const option of manifest.options.filter((o) => o.choicesFrom)) {
        assert.equal(
          typeof publishers.get(manifest.id)?.optionChoices,
          'function',
          `${manifest.id}.${option.name}: choicesFrom without Publisher.optionChoices`,
        );
        assert.ok(!['boolean', 'media', 'datetime'].includes(option.type), `${manifest.id}.${option.name}`);
      }
    }
  });

  it('credential select fields offer choices', () => {
    for (const manifest of platformManifests) {
      if (manifest.connect.method !== 'credentials') continue;
      for (const field of manifest.connect.fields) {
        if (field.type === 'select') assert.ok(field.choices?.length, `${manifest.id}.${field.name}`);
      }
    }
  });
});
