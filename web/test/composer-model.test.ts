import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { platformManifests } from '@postwave/shared/platforms/manifests';
import { connectBody, fieldForIssue, reconnectValues } from '#components/accounts/connect-body.ts';
import { readiness, requestBody, targetCounts } from '#components/compose/composer-selectors.ts';
import { composerReducer, initialState } from '#components/compose/composer-state.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';

const credentialPlatforms = platformManifests.flatMap((m) =>
  m.connect.method === 'credentials' ? [{ manifest: m, connect: m.connect }] : [],
);

describe('connect forms from manifests', () => {
  test('every field lands where its descriptor says, trimmed and normalised; empty optional fields are left out', () => {
    for (const { manifest, connect } of credentialPlatforms) {
      const values = Object.fromEntries(
        connect.fields.map((f) => [f.name, f.required ? `  @value-${f.name} ` : '']),
      );
      const body = connectBody(manifest.id, connect, values);
      assert.equal(body.platform, manifest.id);
      for (const field of connect.fields) {
        const sent =
          field.target === 'platformAccountId' ? body.platformAccountId : body.credentials[field.name];
        if (!field.required) {
          assert.equal(sent, undefined, `${manifest.id}.${field.name}`);
          continue;
        }
        const expected =
          field.transform === 'strip-at'
            ? `value-${field.name}`
            : field.transform === 'https-url'
              ? `https://@value-${field.name}`
              : `@value-${field.name}`;
        assert.equal(sent, expected, `${manifest.id}.${field.name}`);
        assert.equal(
          fieldForIssue(
            connect,
            field.target === 'platformAccountId' ? 'platformAccountId' : `credentials.${field.name}`,
          ),
          field,
        );
      }
    }
  });

  test('a reconnect form starts with the account id field filled, and only that', () => {
    for (const { connect } of credentialPlatforms) {
      const values = reconnectValues(connect, '@same');
      const idField = connect.fields.find((f) => f.target === 'platformAccountId');
      assert.deepEqual(values, idField ? { [idField.name]: '@same' } : {});
    }
  });
});

const [first, second] = platformManifests;
const accounts: AccountSummary[] = [
  {
    id: 'a1',
    platform: first!.id,
    platformAccountId: 'p1',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
  {
    id: 'a2',
    platform: second!.id,
    platformAccountId: 'p2',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
];

describe('composer state model', () => {
  test('options are kept per account, cleared when emptied, and sent only for selected accounts', () => {
    let state = initialState(accounts, 'UTC');
    assert.deepEqual(state.selected, []);
    state = composerReducer(state, { type: 'toggleAccount', accountId: 'a1' });
    state = composerReducer(state, { type: 'option', accountId: 'a1', name: 'x', value: 'y' });
    state = composerReducer(state, { type: 'option', accountId: 'a2', name: 'x', value: 'z' });
    assert.deepEqual(requestBody(state).accountOptions, { a1: { x: 'y' } });
    state = composerReducer(state, { type: 'option', accountId: 'a1', name: 'x', value: '' });
    assert.deepEqual(requestBody(state).accountOptions, {});
  });

  test('counters come from the manifests, and an over-long message blocks publishing', () => {
    let state = composerReducer(initialState(accounts, 'UTC'), { type: 'toggleAccount', accountId: 'a1' });
    state = composerReducer(state, { type: 'message', message: 'x'.repeat(first!.text.limit + 1) });
    const counts = targetCounts(state, accounts);
    assert.equal(counts.length, 1);
    assert.equal(counts[0]!.count?.limit, first!.text.limit);
    assert.equal(readiness(state, counts).canPublish, false);
    assert.equal(readiness(state, counts).blockReason, 'Fix the problems shown beside the accounts.');
  });

  test('a refused submit puts account issues beside their accounts and the rest above', () => {
    let state = composerReducer(initialState(accounts, 'UTC'), { type: 'submitStarted', mode: 'now' });
    assert.equal(state.busy, 'now');
    state = composerReducer(state, {
      type: 'submitRefused',
      error: 'Refused',
      issues: [
        { accountId: 'a2', code: 'text_too_long', message: 'Too long' },
        { code: 'invalid_request', message: 'General' },
      ],
    });
    assert.equal(state.busy, undefined);
    assert.equal(state.error, 'Refused');
    assert.equal(state.results.a2?.valid, false);
    assert.deepEqual(
      state.results.a2?.errors.map((e) => e.message),
      ['Too long'],
    );
    assert.deepEqual(state.generalIssues, ['General']);
  });
});
