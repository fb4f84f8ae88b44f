import assert from 'node:assert/strict';
import { test } from 'node:test';
import { platformManifests } from '@postwave/shared/platforms/manifests';
import { describeDetails } from '#components/audit/labels.ts';

test('the audit log names a platform as its manifest does, never by its id', () => {
  const manifest = platformManifests.find((m) => m.name.toLowerCase() !== m.id) ?? platformManifests[0]!;
  assert.equal(describeDetails({ label: '@news', platform: manifest.id }), `@news · ${manifest.name}`);
  assert.equal(describeDetails({ platform: 'not-a-platform' }), 'not-a-platform');
  assert.equal(describeDetails({ status: 'publishing', accounts: 1, postingMode: 'now' }), 'publishing');
});
