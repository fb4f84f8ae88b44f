import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountTrouble } from '#components/calendar/account-health.ts';

test('calendar flags accounts whose health (or, without it, status) says they cannot post', () => {
  assert.equal(accountTrouble({ status: 'active' }), undefined);
  assert.equal(accountTrouble({ status: 'active', health: 'ok' }), undefined);
  assert.equal(accountTrouble({ status: 'active', health: 'expiring' }), undefined);
  assert.equal(accountTrouble({ status: 'active', health: 'needs_reconnect' }), 'needs reconnecting');
  assert.equal(accountTrouble({ status: 'active', health: 'unreachable' }), 'is unreachable');
  assert.equal(accountTrouble({ status: 'needs_reconnect' }), 'needs reconnecting');
});
