import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { initialState } from '#components/compose/composer-state.ts';
import {
  afterPicking,
  afterUnpicking,
  removeSignature,
  type SnippetSummary,
  signedReducer,
  signedStart,
  visibleSignatures,
} from '#components/compose/signatures.ts';
import { matchingSnippets, movedActive, slashQueryAt } from '#components/compose/snippet-search.ts';
import type { AccountSummary } from '#components/lib/platforms.ts';

/** Default signatures and the snippet picker's logic (docs/library.md#snippets), without a browser. */

const team: SnippetSummary = {
  id: 's1',
  name: 'Team',
  kind: 'signature',
  body: '— the team',
  defaultFor: ['a', 'b'],
};
const ann: SnippetSummary = { id: 's2', name: 'Ann', kind: 'signature', body: '— Ann', defaultFor: ['c'] };
const tags: SnippetSummary = { id: 's3', name: 'Launch', kind: 'hashtags', body: '#launch', defaultFor: [] };
const snippets = [team, ann, tags];
const accounts = ['a', 'b', 'c', 'd'].map(
  (id) => ({ id, platform: 'telegram', label: id, platformAccountId: id }) as unknown as AccountSummary,
);

describe('default signatures', () => {
  test('picking an account appends its signature once, visibly; picking another with the same one adds nothing', () => {
    const one = afterPicking({ message: 'Hello  ', inserted: {} }, snippets, 'a');
    assert.equal(one.message, 'Hello\n\n— the team');
    const two = afterPicking(one, snippets, 'b');
    assert.deepEqual(two, one);
    assert.deepEqual(visibleSignatures(two, snippets), [team]);
    const empty = afterPicking({ message: '', inserted: {} }, snippets, 'c');
    assert.equal(empty.message, '— Ann');
    assert.deepEqual(afterPicking({ message: 'x', inserted: {} }, snippets, 'd'), {
      message: 'x',
      inserted: {},
    });
  });

  test('a signature already in the message (from a template) is not added again', () => {
    const text = { message: 'Hi\n\n— the team', inserted: {} };
    assert.deepEqual(afterPicking(text, snippets, 'a'), text);
  });

  test('unpicking removes it unless another picked account has it, or it was edited', () => {
    const picked = afterPicking(
      afterPicking({ message: 'Hello', inserted: {} }, snippets, 'a'),
      snippets,
      'b',
    );
    assert.deepEqual(afterUnpicking(picked, snippets, 'a', ['b']), picked, 'b still has it');
    assert.deepEqual(afterUnpicking(picked, snippets, 'b', []), { message: 'Hello', inserted: {} });
    const typedAfter = { ...picked, message: `${picked.message}\nP.S. more` };
    assert.equal(afterUnpicking(typedAfter, snippets, 'a', []).message, 'Hello\nP.S. more');
    const edited = { ...picked, message: 'Hello\n\n— the whole team' };
    assert.deepEqual(afterUnpicking(edited, snippets, 'a', []), {
      message: 'Hello\n\n— the whole team',
      inserted: {},
    });
    assert.deepEqual(visibleSignatures(edited, snippets), []);
  });

  test('"Remove signature" takes it out and forgets it', () => {
    const picked = afterPicking({ message: 'Hello', inserted: {} }, snippets, 'c');
    assert.deepEqual(removeSignature(picked, 's2'), { message: 'Hello', inserted: {} });
  });

  test('the reducer follows account toggles; a new post starts with its picked accounts’ signatures', () => {
    const reduce = signedReducer(snippets);
    let state = signedStart(initialState(accounts, 'UTC'), snippets, true);
    state = reduce(state, { type: 'message', message: 'Launch day' });
    state = reduce(state, { type: 'toggleAccount', accountId: 'c' });
    assert.equal(state.message, 'Launch day\n\n— Ann');
    state = reduce(state, { type: 'toggleAccount', accountId: 'a' });
    assert.equal(state.message, 'Launch day\n\n— Ann\n\n— the team');
    state = reduce(state, { type: 'toggleAccount', accountId: 'c' });
    assert.equal(state.message, 'Launch day\n\n— the team');
    state = reduce(state, { type: 'signatureRemoved', snippetId: 's1' });
    assert.equal(state.message, 'Launch day');
    assert.deepEqual(state.selected, ['a']);

    const single = signedStart(initialState(accounts.slice(2, 3), 'UTC'), snippets, true);
    assert.equal(single.message, '— Ann');
    const editing = initialState(accounts.slice(2, 3), 'UTC', {
      id: 'p',
      status: 'draft',
      message: 'Old',
      accountIds: ['c'],
      media: [],
      accountOptions: {},
      scheduledAt: null,
    });
    assert.equal(signedStart(editing, snippets, false).message, 'Old', 'an edited post is left as it is');
  });
});

describe('snippet picker', () => {
  test('"/" opens only at the start of a word; the letters after it filter', () => {
    assert.deepEqual(slashQueryAt('/', 1), { start: 0, query: '' });
    assert.deepEqual(slashQueryAt('Hi /lau', 7), { start: 3, query: 'lau' });
    assert.equal(slashQueryAt('and/or', 4), undefined);
    assert.equal(slashQueryAt('https://x.y/', 12), undefined);
    assert.equal(slashQueryAt('/la unch', 8), undefined);
    assert.deepEqual(
      matchingSnippets(snippets, 'LAU').map((s) => s.id),
      ['s3'],
    );
    assert.equal(matchingSnippets(snippets, '').length, 3);
    assert.deepEqual(
      matchingSnippets(snippets, 'signature').map((s) => s.id),
      ['s1', 's2'],
    );
  });

  test('arrows wrap, Home and End jump', () => {
    assert.equal(movedActive('ArrowDown', 2, 3), 0);
    assert.equal(movedActive('ArrowUp', 0, 3), 2);
    assert.equal(movedActive('End', 0, 3), 2);
    assert.equal(movedActive('Home', 2, 3), 0);
    assert.equal(movedActive('Enter', 0, 3), undefined);
    assert.equal(movedActive('ArrowDown', 0, 0), undefined);
  });
});
