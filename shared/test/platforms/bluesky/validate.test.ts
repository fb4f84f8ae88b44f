import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mediaKindOf } from '../../../src/media/kinds.ts';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { blueskyConfigFromEnv } from '../../../src/platforms/bluesky/config.ts';
import { BlueskyPublisher } from '../../../src/platforms/bluesky/index.ts';
import { account } from './setup.ts';

const publisher = new BlueskyPublisher(blueskyConfigFromEnv({}));
const family = '👨‍👩‍👧';

const info = (contentType: string, size: number, name = 'file'): MediaInfo => ({
  key: name,
  filename: name,
  contentType,
  size,
  kind: mediaKindOf(contentType),
  url: `https://media.example/${name}`,
});
const images = (count: number, size = 1000) =>
  Array.from({ length: count }, (_, i) => info('image/jpeg', size, `p${i}.jpg`));
const codes = async (message: string, media: MediaInfo[] = [], options = {}) =>
  (await publisher.validate({ message }, account(), media, options)).errors.map((e) => e.code);

describe('Bluesky validation', () => {
  it('allows 300 graphemes and refuses 301, counting a family emoji as one', async () => {
    assert.equal(family.length, 8);
    assert.deepEqual(await codes('a'.repeat(290) + family.repeat(10)), []);
    assert.deepEqual(await codes('a'.repeat(290) + family.repeat(11)), ['text_too_long']);
  });

  it('also holds the text to the record limit of 3000 UTF-8 bytes', async () => {
    // 200 graphemes, but 18 bytes each.
    const result = await publisher.validate({ message: family.repeat(200) }, account(), [], {});
    assert.deepEqual(
      result.errors.map((e) => [e.code, e.message.split(';')[0]]),
      [['text_too_long', 'Bluesky allows 3000 bytes of text']],
    );
  });

  it('allows 4 images and refuses 5', async () => {
    assert.deepEqual(await codes('pics', images(4)), []);
    assert.deepEqual(await codes('pics', images(5)), ['too_many_media']);
  });

  it('allows images of 2,000,000 bytes and refuses 2,000,001', async () => {
    assert.deepEqual(await codes('big', images(1, 2_000_000)), []);
    const errors = (await publisher.validate({ message: 'big' }, account(), images(1, 2_000_001), {})).errors;
    assert.deepEqual(
      errors.map((e) => [e.code, e.path]),
      [['media_too_large', 'media.0']],
    );
  });

  it('accepts one MP4 video up to 100 MB, alone', async () => {
    assert.deepEqual(await codes('clip', [info('video/mp4', 100_000_000)]), []);
    assert.deepEqual(await codes('clip', [info('video/mp4', 100_000_001)]), ['media_too_large']);
    assert.deepEqual(await codes('clip', [info('video/webm', 1000)]), ['media_type_unsupported']);
    assert.deepEqual(await codes('clip', [info('video/mp4', 1000), ...images(1)]), ['media_mix_unsupported']);
    assert.deepEqual(await codes('clip', [info('video/mp4', 1000), info('video/mp4', 1000)]), [
      'media_mix_unsupported',
    ]);
  });

  it('refuses documents, warns that GIFs are still, and needs text or media', async () => {
    assert.deepEqual(await codes('doc', [info('application/pdf', 10)]), ['media_type_unsupported']);
    const gif = await publisher.validate({ message: 'gif' }, account(), [info('image/gif', 10)], {});
    assert.deepEqual(gif.errors, []);
    assert.deepEqual(
      gif.warnings.map((w) => w.code),
      ['gif_not_animated'],
    );
    assert.deepEqual(await codes('  '), ['text_required']);
    assert.deepEqual(await codes('', images(1)), []);
  });

  it('refuses more alt texts than media, and unknown or malformed options', async () => {
    assert.deepEqual(await codes('pics', images(1), { altTexts: ['a', 'b'] }), ['invalid_option']);
    assert.equal(publisher.optionsSchema.safeParse({ altText: ['a'] }).success, false);
    assert.equal(publisher.optionsSchema.safeParse({ langs: ['en', 'de', 'fr', 'es'] }).success, false);
    assert.equal(publisher.optionsSchema.safeParse({ langs: ['en-GB'] }).success, true);
  });

  it('requires identifier and app password in credentials', () => {
    assert.equal(publisher.credentialsSchema.safeParse({ identifier: 'a.test' }).success, false);
    assert.equal(
      publisher.credentialsSchema.safeParse({ identifier: 'a.test', appPassword: 'x', service: 'ftp://x' })
        .success,
      false,
    );
    assert.equal(
      publisher.credentialsSchema.safeParse({
        identifier: 'a.test',
        appPassword: 'x',
        service: 'https://pds.example',
      }).success,
      true,
    );
  });
});
