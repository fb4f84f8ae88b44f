import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  canonicalJson,
  idempotencyKeyPattern,
  jsonDepthExceeds,
  requestFingerprint,
  scopeFromSecret,
} from '../../src/index.ts';

function nested(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = i % 2 ? { k: value } : [value];
  return value;
}

describe('idempotency fingerprint', () => {
  it('serialises with sorted keys and no whitespace, like JSON.stringify otherwise', () => {
    const value = { b: [1, { y: null, x: 'é"' }], a: true, c: undefined, d: 1e21 };
    assert.equal(canonicalJson(value), '{"a":true,"b":[1,{"x":"é\\"","y":null}],"d":1e+21}');
    assert.equal(canonicalJson([undefined, 'x']), '[null,"x"]');
    assert.equal(canonicalJson({}), '{}');
    assert.equal(canonicalJson([]), '[]');
    assert.equal(canonicalJson('s'), '"s"');
    assert.equal(canonicalJson(undefined), 'null');
    for (const sample of [{ z: { b: 1, a: [2, 3] } }, [[[]]], { '': { ' ': [] } }]) {
      assert.deepEqual(JSON.parse(canonicalJson(sample)), sample);
    }
  });

  it('is iterative: a million levels do not overflow the stack', () => {
    const deep = nested(1_000_000);
    assert.equal(canonicalJson(deep).length > 1_000_000, true);
    assert.equal(jsonDepthExceeds(deep, 32), true);
  });

  it('counts depth from the top-level container', () => {
    assert.equal(jsonDepthExceeds('scalar', 0), false);
    assert.equal(jsonDepthExceeds({}, 0), true);
    assert.equal(jsonDepthExceeds(nested(32), 32), false);
    assert.equal(jsonDepthExceeds(nested(33), 32), true);
    assert.equal(jsonDepthExceeds({ a: 1, b: [1, [2]], c: { d: {} } }, 3), false);
    assert.equal(jsonDepthExceeds({ a: 1, b: [1, [2]], c: { d: { e: [] } } }, 3), true);
  });

  it('binds method and path', () => {
    const body = { a: 1, b: 2 };
    const base = requestFingerprint('POST', '/api/v1/posts', body);
    assert.equal(requestFingerprint('post', '/api/v1/posts', { b: 2, a: 1 }), base);
    assert.notEqual(requestFingerprint('POST', '/api/v1/posts/1', body), base);
    assert.notEqual(requestFingerprint('PATCH', '/api/v1/posts', body), base);
  });

  it('accepts 1 to 255 printable ASCII characters', () => {
    assert.ok(idempotencyKeyPattern.test('a'));
    assert.ok(idempotencyKeyPattern.test('x'.repeat(255)));
    assert.ok(idempotencyKeyPattern.test('a b ~!'));
    for (const bad of ['', 'x'.repeat(256), 'tab\t', 'new\nline', 'café', 'del\x7f', 'nul\0']) {
      assert.equal(idempotencyKeyPattern.test(bad), false, JSON.stringify(bad));
    }
  });

  it('derives a scope that does not reveal the secret', () => {
    assert.equal(scopeFromSecret('k').length, 64);
    assert.notEqual(scopeFromSecret('k'), scopeFromSecret('l'));
    assert.ok(!scopeFromSecret('secret-key').includes('secret'));
  });
});
