import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { platformManifests } from '@postwave/shared/platforms/manifests';
import { connectBody, fieldForIssue, reconnectValues } from '#components/accounts/connect-body.ts';
import {
  altTextLimit,
  partCounts,
  readiness,
  requestBody,
  targetCounts,
  threadAudience,
  versionOf,
} from '#components/compose/composer-selectors.ts';
import { composerReducer, initialState, maxThreadParts } from '#components/compose/composer-state.ts';
import { firstUrl, splitAtLimit } from '#components/compose/preview-text.ts';
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
    assert.deepEqual(requestBody(state, accounts).accountOptions, { a1: { x: 'y' } });
    state = composerReducer(state, { type: 'option', accountId: 'a1', name: 'x', value: '' });
    assert.deepEqual(requestBody(state, accounts).accountOptions, {});
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

const threaded = platformManifests.find((m) => m.features.thread)!;
const unthreaded = platformManifests.find((m) => !m.features.thread)!;
const withAlt = platformManifests
  .filter((m) => m.features.altText)
  .sort((a, b) => a.features.altText!.maxLength - b.features.altText!.maxLength);
const noAlt = platformManifests.find((m) => !m.features.altText);
const featured: AccountSummary[] = [
  {
    id: 't1',
    platform: threaded.id,
    platformAccountId: 'p1',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
  {
    id: 'u1',
    platform: unthreaded.id,
    platformAccountId: 'p2',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
  {
    id: 'alt-short',
    platform: withAlt[0]!.id,
    platformAccountId: 'p3',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
  {
    id: 'alt-long',
    platform: withAlt.at(-1)!.id,
    platformAccountId: 'p4',
    status: 'active',
    health: 'ok',
    healthCheckedAt: null,
    createdAt: '',
  },
];
const stored = (key: string) => ({
  id: key,
  key,
  url: `https://media.test/${key}`,
  filename: `${key}.png`,
  contentType: 'image/png',
  size: 10,
  storage: 'local' as const,
});
const uploaded = (localId: string, key = localId) => ({
  localId,
  filename: `${key}.png`,
  contentType: 'image/png',
  progress: 1,
  media: stored(key),
});
const select = (ids: string[], accs = featured) =>
  ids.reduce(
    (s, accountId) => composerReducer(s, { type: 'toggleAccount', accountId }),
    initialState(accs, 'UTC'),
  );

describe('per-account versions', () => {
  test('editing an account tab creates its version; counts and the body follow it; reset drops it', () => {
    let state = select(['t1', 'u1']);
    state = composerReducer(state, { type: 'message', message: 'Base text' });
    state = composerReducer(state, { type: 'tab', tab: 'u1' });
    state = composerReducer(state, { type: 'versionMessage', accountId: 'u1', message: 'Short' });
    assert.deepEqual(versionOf(state, 'u1'), { message: 'Short', media: [], edited: true });
    assert.deepEqual(versionOf(state, 't1'), { message: 'Base text', media: [], edited: false });
    const counts = targetCounts(state, featured);
    assert.equal(counts.find((c) => c.account.id === 'u1')?.count?.used, 5);
    assert.equal(counts.find((c) => c.account.id === 'u1')?.edited, true);
    assert.deepEqual(requestBody(state, featured).overrides, { u1: { message: 'Short' } });
    state = composerReducer(state, { type: 'versionReset', accountId: 'u1' });
    assert.equal(requestBody(state, featured).overrides, undefined);
    assert.equal(versionOf(state, 'u1').message, 'Base text');
  });

  test('changing an account’s media starts from a copy of the base media and leaves the base alone', () => {
    let state = select(['t1', 'u1']);
    state = composerReducer(state, { type: 'mediaAdded', slot: 'base', item: uploaded('m-a', 'a') });
    state = composerReducer(state, { type: 'mediaAdded', slot: 'account:u1', item: uploaded('m-b', 'b') });
    assert.deepEqual(
      state.media.map((m) => m.localId),
      ['m-a'],
    );
    assert.deepEqual(
      state.overrides.u1?.media?.map((m) => m.localId),
      ['m-a', 'm-b'],
    );
    state = composerReducer(state, { type: 'mediaRemoved', slot: 'account:u1', localId: 'm-a' });
    assert.deepEqual(
      requestBody(state, featured).overrides?.u1?.media?.map((m) => m.key),
      ['b'],
    );
    assert.deepEqual(
      requestBody(state, featured).media.map((m) => m.key),
      ['a'],
    );
    // Upload progress reaches every copy.
    state = composerReducer(state, {
      type: 'mediaAdded',
      slot: 'base',
      item: { ...uploaded('m-c'), media: undefined, progress: 0 },
    });
    state = composerReducer(state, { type: 'mediaAdded', slot: 'account:t1', item: uploaded('m-d') });
    state = composerReducer(state, { type: 'mediaUpdated', localId: 'm-c', patch: { progress: 0.5 } });
    assert.equal(state.media.find((m) => m.localId === 'm-c')?.progress, 0.5);
    assert.equal(state.overrides.t1?.media?.find((m) => m.localId === 'm-c')?.progress, 0.5);
  });

  test('a deselected account keeps its version but it is not sent, and its tab closes', () => {
    let state = select(['t1', 'u1']);
    state = composerReducer(state, { type: 'tab', tab: 'u1' });
    state = composerReducer(state, { type: 'versionMessage', accountId: 'u1', message: 'Mine' });
    state = composerReducer(state, { type: 'toggleAccount', accountId: 'u1' });
    assert.equal(state.activeTab, 'base');
    assert.equal(requestBody(state, featured).overrides, undefined);
    state = composerReducer(state, { type: 'toggleAccount', accountId: 'u1' });
    assert.deepEqual(requestBody(state, featured).overrides, { u1: { message: 'Mine' } });
  });

  test('an edited post starts with its versions, thread and alt text', () => {
    const state = initialState(featured, 'UTC', {
      id: 'p',
      status: 'draft',
      message: 'Base',
      accountIds: ['t1', 'u1'],
      media: [{ ...stored('a'), altText: 'A cat' }],
      accountOptions: {},
      scheduledAt: null,
      overrides: { u1: { message: 'Own' } },
      thread: [{ message: 'Second', media: [stored('b')] }],
    });
    const body = requestBody(state, featured);
    assert.deepEqual(body.overrides, { u1: { message: 'Own' } });
    assert.deepEqual(body.thread, [{ message: 'Second', media: [stored('b')] }]);
    assert.deepEqual(body.media, [{ ...stored('a'), altText: 'A cat' }]);
  });
});

describe('thread parts', () => {
  test('parts are sent only when a selected platform publishes threads, and the others are named', () => {
    let state = select(['u1']);
    state = composerReducer(state, { type: 'message', message: 'First' });
    state = composerReducer(state, { type: 'partAdded' });
    const partId = state.thread[0]!.localId;
    state = composerReducer(state, { type: 'partMessage', partId, message: 'Second' });
    assert.deepEqual(threadAudience(state, featured).receiving, []);
    assert.equal(requestBody(state, featured).thread, undefined);
    state = composerReducer(state, { type: 'toggleAccount', accountId: 't1' });
    const audience = threadAudience(state, featured);
    assert.deepEqual(
      audience.receiving.map((a) => a.id),
      ['t1'],
    );
    assert.deepEqual(
      audience.left.map((a) => a.id),
      ['u1'],
    );
    assert.deepEqual(requestBody(state, featured).thread, [{ message: 'Second' }]);
    state = composerReducer(state, { type: 'partRemoved', partId });
    assert.equal(requestBody(state, featured).thread, undefined);
  });

  test('at most 25 parts; an empty part or one over the limit blocks publishing', () => {
    let state = select(['t1']);
    state = composerReducer(state, { type: 'message', message: 'First' });
    for (let i = 0; i < 30; i++) state = composerReducer(state, { type: 'partAdded' });
    assert.equal(state.thread.length, maxThreadParts);
    state = { ...state, thread: state.thread.slice(0, 2) };
    const [a, b] = state.thread;
    state = composerReducer(state, { type: 'partMessage', partId: a!.localId, message: 'ok' });
    let counts = targetCounts(state, featured);
    assert.equal(
      readiness(state, counts, featured).blockReason,
      'Thread part 3 is empty: write it or remove it.',
    );
    state = composerReducer(state, {
      type: 'partMessage',
      partId: b!.localId,
      message: 'x'.repeat(threaded.text.limit + 1),
    });
    counts = targetCounts(state, featured);
    assert.equal(partCounts(state, featured, state.thread[1]!)[0]?.count?.used, threaded.text.limit + 1);
    assert.equal(readiness(state, counts, featured).canPublish, false);
    state = composerReducer(state, { type: 'partMessage', partId: b!.localId, message: 'fine' });
    assert.equal(readiness(state, targetCounts(state, featured), featured).canPublish, true);
  });
});

describe('alt text', () => {
  test('the limit is the smallest among selected platforms that show alt text', () => {
    let state = select(['alt-short', 'alt-long']);
    assert.equal(altTextLimit(state, featured).limit, withAlt[0]!.features.altText!.maxLength);
    state = composerReducer(state, { type: 'toggleAccount', accountId: 'alt-short' });
    assert.equal(altTextLimit(state, featured).limit, withAlt.at(-1)!.features.altText!.maxLength);
    if (noAlt) {
      const accs: AccountSummary[] = [
        {
          id: 'n',
          platform: noAlt.id,
          platformAccountId: 'n',
          status: 'active',
          health: 'ok',
          healthCheckedAt: null,
          createdAt: '',
        },
      ];
      // A lone account starts selected.
      const only = initialState(accs, 'UTC');
      assert.equal(altTextLimit(only, accs).limit, null);
      assert.deepEqual(
        altTextLimit(only, accs).without.map((a) => a.id),
        ['n'],
      );
    }
  });

  test('alt text travels on the media reference, trimmed; too long blocks publishing', () => {
    let state = select(['alt-short']);
    state = composerReducer(state, { type: 'mediaAdded', slot: 'base', item: uploaded('m1', 'a') });
    state = composerReducer(state, { type: 'mediaAdded', slot: 'base', item: uploaded('m2', 'b') });
    state = composerReducer(state, { type: 'altText', slot: 'base', localId: 'm1', altText: '  A cat  ' });
    assert.deepEqual(requestBody(state, featured).media, [{ ...stored('a'), altText: 'A cat' }, stored('b')]);
    const limit = withAlt[0]!.features.altText!.maxLength;
    state = composerReducer(state, {
      type: 'altText',
      slot: 'base',
      localId: 'm2',
      altText: 'y'.repeat(limit + 1),
    });
    assert.equal(
      readiness(state, targetCounts(state, featured), featured).blockReason,
      `Shorten the alt text to ${limit} characters or fewer.`,
    );
  });
});

test('an account’s own media is held to its own platform’s alt text limit', () => {
  const short = withAlt[0]!.features.altText!.maxLength;
  const long = withAlt.at(-1)!.features.altText!.maxLength;
  assert.ok(long > short);
  let state = select(['alt-short', 'alt-long']);
  state = composerReducer(state, { type: 'message', message: 'Photos' });
  state = composerReducer(state, { type: 'mediaAdded', slot: 'account:alt-long', item: uploaded('m1') });
  state = composerReducer(state, {
    type: 'altText',
    slot: 'account:alt-long',
    localId: 'm1',
    altText: 'z'.repeat(short + 1),
  });
  assert.equal(readiness(state, targetCounts(state, featured), featured).canPublish, true);
  state = composerReducer(state, {
    type: 'altText',
    slot: 'account:alt-long',
    localId: 'm1',
    altText: 'z'.repeat(long + 1),
  });
  assert.equal(
    readiness(state, targetCounts(state, featured), featured).blockReason,
    `Shorten the alt text to ${long} characters or fewer.`,
  );
});

describe('preview text', () => {
  test('the message is cut exactly where the platform’s counter reaches its limit', () => {
    const limit = first!.text.limit;
    const message = `${'a'.repeat(limit - 1)}😀😀 tail`;
    const input = { message, hasMedia: false, options: {} };
    const { fits, overflow } = splitAtLimit(first!.id, input);
    assert.equal(fits + overflow, message);
    assert.ok(overflow.length > 0);
    const fitCount = first!.text.count({ ...input, message: fits });
    assert.ok(fitCount.used <= fitCount.limit);
    const nextGrapheme = Array.from(
      new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(overflow),
    )[0]!.segment;
    const oneMore = first!.text.count({ ...input, message: fits + nextGrapheme });
    assert.ok(oneMore.used > oneMore.limit);
    assert.deepEqual(splitAtLimit(first!.id, { ...input, message: 'short' }), {
      fits: 'short',
      overflow: '',
    });
  });

  test('the first URL of a message, without trailing punctuation', () => {
    assert.equal(firstUrl('See https://example.com/a?b=1. And http://x.test'), 'https://example.com/a?b=1');
    assert.equal(
      firstUrl('(https://en.wikipedia.org/wiki/Foo_(bar))'),
      'https://en.wikipedia.org/wiki/Foo_(bar)',
    );
    assert.equal(firstUrl('no links here'), undefined);
  });
});
