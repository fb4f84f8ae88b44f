import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { youTubeModule } from '../../../src/platforms/youtube/index.ts';

describe('YouTube module', () => {
  it('is registered', () => {
    const publisher = PublisherRegistry.fromEnv({}).get('youtube');
    assert.equal(publisher?.displayName, 'YouTube');
    assert.ok(publisher.concurrency >= 1);
  });

  it('refuses malformed settings at start, naming the variable', () => {
    assert.throws(() => youTubeModule.create({ YOUTUBE_API_URL: 'not a url' }), /YOUTUBE_API_URL/);
    assert.throws(() => youTubeModule.create({ YOUTUBE_UPLOAD_URL: 'file:///tmp' }), /YOUTUBE_UPLOAD_URL/);
    assert.throws(() => youTubeModule.create({ GOOGLE_OAUTH_TOKEN_URL: '::' }), /GOOGLE_OAUTH_TOKEN_URL/);
    assert.throws(
      () => youTubeModule.create({ YOUTUBE_UPLOAD_CHUNK_BYTES: '0' }),
      /YOUTUBE_UPLOAD_CHUNK_BYTES/,
    );
  });
});
