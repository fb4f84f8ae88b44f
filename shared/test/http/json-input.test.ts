import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  hasNul,
  isJsonContentType,
  jsonBodyProblem,
  loneSurrogatePath,
  strictUtf8Text,
  unsafeJsonReason,
} from '../../src/http/json-input.ts';

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

test('a lone surrogate is 422 lone_surrogate at its path (string or key); pairs (emoji) pass', () => {
  const at = (json: string) => {
    const refused = jsonBodyProblem(JSON.parse(json));
    return (
      refused && [
        refused.problem.status,
        refused.problem.errors?.[0]?.code,
        refused.problem.errors?.[0]?.path,
      ]
    );
  };
  assert.deepEqual(at('{"message": "a\\ud800b"}'), [422, 'lone_surrogate', 'message']);
  assert.deepEqual(at('{"thread": [{"message": "ok"}, {"message": "\\udc00"}]}'), [
    422,
    'lone_surrogate',
    'thread[1].message',
  ]);
  assert.deepEqual(at('{"accountOptions": {"\\ud83d": 1}}'), [422, 'lone_surrogate', 'accountOptions.<key>']);
  assert.equal(at('{"message": "\\ud83d\\ude00 ok"}'), undefined);
  assert.equal(loneSurrogatePath(JSON.parse('["\\ud800"]'), '[3]'), '[3][0]');
  // The 400 refusals come first.
  assert.equal(jsonBodyProblem(JSON.parse('{"m": "\\u0000 \\ud800"}'))?.problem.status, 400);
});

test('refuses a number beyond a double (1e400 parses as Infinity, which JSON cannot carry back)', () => {
  assert.match(unsafeJsonReason(JSON.parse('{"options": {"x": [1e400]}}'))!, /out of range/);
  assert.match(unsafeJsonReason(JSON.parse('-1e999'))!, /out of range/);
  assert.equal(unsafeJsonReason(JSON.parse('{"max": 1.7976931348623157e308, "tiny": 1e-400}')), undefined);
});

test('malformed percent-encoding and encoded NUL in a request target', async () => {
  const { malformedRequestTarget } = await import('../../src/http/json-input.ts');
  for (const bad of ['/media/%ZZ', '/a%', '/x?q=%ZZ', '/x?%E0%A4=1', '/x?a=b&c=%00', '/%00', '/x?q=%C0%AF'])
    assert.equal(malformedRequestTarget(bad), true, bad);
  for (const good of [
    '/',
    '/media/a.png',
    '/x?q=%20%F0%9F%92%A5',
    '/x?a=b+c&d',
    '/api/v1/posts?status=draft',
  ])
    assert.equal(malformedRequestTarget(good), false, good);
});

test('a JSON body is UTF-8: another declared charset is not JSON, bytes that are not UTF-8 are refused', () => {
  for (const good of [
    'application/json',
    'Application/JSON; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/merge-patch+json; charset=utf8',
    'application/json; boundary=x',
  ])
    assert.equal(isJsonContentType(good), true, good);
  for (const bad of [
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    '',
    undefined,
  ])
    assert.equal(isJsonContentType(bad), false, String(bad));
  assert.equal(strictUtf8Text(Buffer.from('{"message":"café 🎉"}')), '{"message":"café 🎉"}');
  assert.equal(strictUtf8Text(Buffer.from([0x7b, 0x22, 0x63, 0x61, 0x66, 0xe9, 0x22, 0x7d])), undefined);
  assert.equal(strictUtf8Text(Buffer.from([0xed, 0xa0, 0x80])), undefined, 'a lone surrogate');
});
