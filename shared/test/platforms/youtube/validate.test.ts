import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PlatformAccount, ValidationContext } from '../../../src/platforms/types.ts';
import { youTubeConfigFromEnv } from '../../../src/platforms/youtube/config.ts';
import { createYouTubePublisher } from '../../../src/platforms/youtube/index.ts';
import { tagsLength } from '../../../src/platforms/youtube/metadata.ts';
import type { YouTubeOptions } from '../../../src/platforms/youtube/options.ts';
import { memoryMedia } from '../memory-media.ts';
import { ownMediaResolver, pngBytes, sampleVideo } from './setup.ts';

const publisher = createYouTubePublisher(youTubeConfigFromEnv({}));
const account: PlatformAccount = {
  id: 'yt1',
  platform: 'youtube',
  platformAccountId: 'UC123',
  credentials: { refreshToken: 'r', clientId: 'c', clientSecret: 's' },
};
const video = sampleVideo(1000).file;
const thumbnail = memoryMedia(pngBytes(), {
  filename: 'thumb.png',
  contentType: 'image/png',
  key: 'thumb.png',
});
const context: ValidationContext = { resolveOwnMedia: ownMediaResolver([thumbnail]) };

async function errors(message: string, options: YouTubeOptions = {}, media = [video], ctx = context) {
  const parsed = publisher.optionsSchema.parse(options);
  const outcome = await publisher.validate({ message }, account, media, parsed, ctx);
  return outcome.errors.map((e) => e.code);
}

describe('YouTube validation: title', () => {
  it('takes the first non-empty line of the message by default', async () => {
    assert.deepEqual(await errors('\nMy video\nmore text'), []);
    assert.deepEqual(await errors('   '), ['title_required']);
  });

  it('accepts 100 characters and refuses 101, counting code points', async () => {
    assert.deepEqual(await errors('body', { title: 'a'.repeat(100) }), []);
    assert.deepEqual(await errors('body', { title: '🎬'.repeat(100) }), []);
    assert.deepEqual(await errors('body', { title: 'a'.repeat(101) }), ['title_too_long']);
    assert.deepEqual(await errors('a'.repeat(101)), ['title_too_long']);
  });

  it('refuses < and > in the title', async () => {
    assert.deepEqual(await errors('body', { title: 'a <b> c' }), ['title_invalid']);
    assert.deepEqual(await errors('body', { title: '1 > 0' }), ['title_invalid']);
  });

  it('points at the option when the title was given, at the message otherwise', async () => {
    const outcome = await publisher.validate(
      { message: 'x' },
      account,
      [video],
      { title: 'a'.repeat(101) },
      context,
    );
    assert.equal(outcome.errors[0]?.path, 'accountOptions.yt1.title');
    const derived = await publisher.validate({ message: 'a'.repeat(101) }, account, [video], {}, context);
    assert.equal(derived.errors[0]?.path, 'message');
  });
});

describe('YouTube validation: description and tags', () => {
  it('accepts 5000 bytes and refuses 5001, counting UTF-8 bytes', async () => {
    const title = { title: 'T' };
    assert.deepEqual(await errors('x', { ...title, description: 'é'.repeat(2500) }), []);
    assert.deepEqual(await errors('x', { ...title, description: `${'é'.repeat(2500)}a` }), [
      'description_too_long',
    ]);
    // The message is the default description: 1667 three-byte characters is 5001 bytes.
    assert.deepEqual(await errors(`${'€'.repeat(1666)}ab`, title), []);
    assert.deepEqual(await errors('€'.repeat(1667), title), ['description_too_long']);
  });

  it('refuses < and > in the description', async () => {
    assert.deepEqual(await errors('Title\nuse a -> b', {}), ['description_invalid']);
    assert.deepEqual(await errors('Title\nuse a -> b', { description: 'use a to b' }), []);
  });

  it('counts tags as YouTube does and refuses more than 500', async () => {
    assert.equal(tagsLength(['a', 'b c']), 1 + 1 + 3 + 2);
    const fifty = Array.from({ length: 50 }, () => 'abcdefghi'); // 50 × 9 + 49 commas = 499
    assert.equal(tagsLength(fifty), 499);
    assert.deepEqual(await errors('T', { tags: [...fifty.slice(1), 'abcdefghij'] }), []);
    assert.deepEqual(await errors('T', { tags: [...fifty.slice(1), 'abcdefghijk'] }), ['tags_too_long']);
  });
});

describe('YouTube validation: media', () => {
  it('needs exactly one video', async () => {
    assert.deepEqual(await errors('T', {}, []), ['media_required']);
    assert.deepEqual(await errors('T', {}, [video, sampleVideo(10).file]), ['too_many_media']);
    assert.deepEqual(await errors('T', {}, [thumbnail]), ['media_type_unsupported']);
  });
});

describe('YouTube validation: schedule and privacy', () => {
  const future = new Date(Date.now() + 86_400_000).toISOString();
  it('schedules private videos, private by default', async () => {
    assert.deepEqual(await errors('T', { publishAt: future }), []);
    assert.deepEqual(await errors('T', { publishAt: future, privacyStatus: 'private' }), []);
    assert.deepEqual(await errors('T', { publishAt: future, privacyStatus: 'public' }), [
      'publish_at_requires_private',
    ]);
    assert.deepEqual(await errors('T', { publishAt: '2001-01-01T00:00:00Z' }), ['publish_at_past']);
  });

  it('refuses unknown options and malformed values', () => {
    for (const options of [
      { privacy: 'public' },
      { privacyStatus: 'hidden' },
      { publishAt: 'tomorrow' },
      { categoryId: 'music' },
      { tags: 'a,b' },
    ]) {
      assert.equal(publisher.optionsSchema.safeParse(options).success, false, JSON.stringify(options));
    }
  });
});

describe('YouTube validation: thumbnail', () => {
  it('accepts our own JPEG or PNG up to 2 MB', async () => {
    assert.deepEqual(await errors('T', { thumbnailUrl: thumbnail.url }), []);
    const atLimit = memoryMedia(pngBytes(2 * 1024 * 1024), { filename: 'big.png', contentType: 'image/png' });
    const over = memoryMedia(pngBytes(2 * 1024 * 1024 + 1), {
      filename: 'huge.png',
      contentType: 'image/png',
    });
    const ctx = { resolveOwnMedia: ownMediaResolver([atLimit, over]) };
    assert.deepEqual(await errors('T', { thumbnailUrl: atLimit.url }, [video], ctx), []);
    assert.deepEqual(await errors('T', { thumbnailUrl: over.url }, [video], ctx), ['thumbnail_too_large']);
  });

  it('refuses a URL that is not our media', async () => {
    const outcome = await publisher.validate(
      { message: 'T' },
      account,
      [video],
      { thumbnailUrl: 'https://elsewhere.example/thumb.png' },
      context,
    );
    assert.deepEqual(
      outcome.errors.map((e) => [e.code, e.path]),
      [['thumbnail_not_found', 'accountOptions.yt1.thumbnailUrl']],
    );
  });

  it('refuses other image types, and refuses when the server cannot resolve media', async () => {
    const gif = memoryMedia(new Uint8Array(10), { filename: 'a.gif', contentType: 'image/gif' });
    const ctx = { resolveOwnMedia: ownMediaResolver([gif]) };
    assert.deepEqual(await errors('T', { thumbnailUrl: gif.url }, [video], ctx), [
      'thumbnail_type_unsupported',
    ]);
    assert.deepEqual(await errors('T', { thumbnailUrl: thumbnail.url }, [video], {}), [
      'thumbnail_unsupported',
    ]);
  });
});

describe('YouTube validation: credentials and settings', () => {
  it('reports incomplete credentials', async () => {
    const outcome = await publisher.validate(
      { message: 'T' },
      { ...account, credentials: { refreshToken: 'r' } },
      [video],
      {},
      context,
    );
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['credentials_invalid'],
    );
  });

  it('refuses a chunk size that is not a multiple of 256 KiB', () => {
    assert.throws(
      () => youTubeConfigFromEnv({ YOUTUBE_UPLOAD_CHUNK_BYTES: '1000000' }),
      /multiple of 262144/,
    );
    assert.equal(youTubeConfigFromEnv({}).chunkBytes, 8 * 1024 * 1024);
  });
});
