import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mastodonLength } from '../../../src/platforms/mastodon/count.ts';

describe('Mastodon character counting', () => {
  it('counts every http(s) URL as the reserved length, whatever its real length', () => {
    assert.equal(mastodonLength('https://a.io', '', 23), 23);
    assert.equal(mastodonLength(`see https://example.com/${'x'.repeat(200)}`, '', 23), 4 + 23);
    assert.equal(mastodonLength('https://a.io.', '', 23), 24);
    assert.equal(mastodonLength('(https://en.wikipedia.org/wiki/Fish_(food))', '', 23), 25);
  });

  it('does not shorten links without a scheme', () => {
    assert.equal(mastodonLength('example.com/a-long-path', '', 23), 23);
    assert.equal(mastodonLength('example.com/a-longer-path', '', 23), 25);
  });

  it('counts a remote mention by its username only', () => {
    assert.equal(
      mastodonLength('@alice@very-long-instance-name.example.social hi', '', 23),
      '@alice hi'.length,
    );
    assert.equal(mastodonLength('@bob hi', '', 23), 7);
    assert.equal(mastodonLength('mail me: bob@example.com', '', 23), 24);
  });

  it('counts grapheme clusters and includes the content warning', () => {
    assert.equal(mastodonLength('👨‍👩‍👧👍🏽', '', 23), 2);
    assert.equal(mastodonLength('text', 'CW: spoilers', 23), 16);
  });
});
