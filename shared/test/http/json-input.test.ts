import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasNul, unsafeJsonReason } from '../../src/http/json-input.ts';

const nest = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

test('accepts ordinary JSON up to 32 levels', () => {
  assert.equal(unsafeJsonReason({ message: 'hi', accountIds: ['a'], n: 1, ok: true, x: null }), undefined);
  assert.equal(unsafeJsonReason(nest(32)), undefined);
});

test('refuses nesting over 32 levels, even 100,000 deep, without recursion', () => {
  assert.match(unsafeJsonReason(nest(33))!, /deeper than 32/);
  assert.match(unsafeJsonReason(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))!, /deeper/);
});

test('refuses NUL in any string or key', () => {
  assert.match(unsafeJsonReason({ message: 'a\u0000b' })!, /NUL/);
  assert.match(unsafeJsonReason({ deep: [{ x: ['\u0000'] }] })!, /NUL/);
  assert.match(unsafeJsonReason({ 'k\u0000': 1 })!, /NUL/);
  assert.equal(hasNul(['a', 'b']), false);
  assert.equal(hasNul(['a', '\u0000']), true);
});
