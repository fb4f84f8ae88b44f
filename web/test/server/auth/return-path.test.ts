import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { returnPath } from '../../../server/auth/return-path.ts';

describe('returnPath', () => {
  const appUrl = 'https://app.example.com';
  it('keeps paths on this site and refuses every other destination', () => {
    assert.equal(returnPath('/posts?status=draft#top', appUrl), '/posts?status=draft#top');
    assert.equal(returnPath('https://app.example.com/cli/authorize?x=1', appUrl), '/cli/authorize?x=1');
    assert.equal(returnPath(undefined, appUrl), undefined);
    for (const hostile of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
    ])
      assert.equal(returnPath(hostile, appUrl), undefined, hostile);
  });
});
