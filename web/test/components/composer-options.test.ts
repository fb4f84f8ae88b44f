import assert from 'node:assert/strict';
import { test } from 'node:test';
import { platformManifests } from '@postwave/shared/platforms/manifests';
import { requestBody } from '#components/compose/composer-selectors.ts';
import { composerReducer, initialState } from '#components/compose/composer-state.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';

/** Option fields with dotted names (`event.title`) edit nested option objects in the composer. */
const account: AccountSummary = {
  id: 'a1',
  platform: platformManifests[0]!.id,
  platformAccountId: 'p1',
  status: 'active',
  health: 'ok',
  healthCheckedAt: null,
  createdAt: '',
};

test('a dotted option name sets and clears a field of a nested option object', () => {
  // The only account is selected from the start.
  let state = initialState([account], 'UTC');
  const set = (name: string, value: unknown) => {
    state = composerReducer(state, { type: 'option', accountId: 'a1', name, value });
  };
  set('event.title', 'Launch');
  set('event.start', '2030-01-01T10:00:00.000Z');
  set('topicType', 'EVENT');
  assert.deepEqual(requestBody(state, [account]).accountOptions, {
    a1: { event: { title: 'Launch', start: '2030-01-01T10:00:00.000Z' }, topicType: 'EVENT' },
  });
  set('event.title', '');
  set('event.start', undefined);
  assert.deepEqual(requestBody(state, [account]).accountOptions, { a1: { topicType: 'EVENT' } });
});
