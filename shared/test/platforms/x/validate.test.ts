import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { xWeightedLength } from '../../../src/platforms/x/count.ts';
import { xManifest } from '../../../src/platforms/x/manifest.ts';
import { xOptionsSchema } from '../../../src/platforms/x/options.ts';
import { validateXPost } from '../../../src/platforms/x/validate.ts';

const info = (kind: MediaInfo['kind'], contentType: string, size = 1000, filename = 'f'): MediaInfo => ({
  key: filename,
  filename,
  contentType,
  size,
  kind,
  url: `https://media.example/${filename}`,
});
const codes = (message: string, media: MediaInfo[] = [], options = {}) =>
  validateXPost({ message }, media, options).errors.map((e) => e.code);

describe('X weighted counting (twitter-text v3)', () => {
  it('counts Latin text 1, CJK and emoji 2, any URL 23', () => {
    assert.equal(xWeightedLength('hello'), 5);
    assert.equal(xWeightedLength('日本語'), 6);
    assert.equal(xWeightedLength('😀'), 2);
    // A family emoji is one grapheme of seven code points; twitter-text weighs it as one emoji.
    assert.equal(xWeightedLength('👨‍👩‍👧‍👦'), 2);
    assert.equal(xWeightedLength('https://example.com'), 23);
    assert.equal(xWeightedLength(`https://example.com/${'a'.repeat(200)}`), 23);
    assert.equal(xWeightedLength('see example.com now'), 4 + 23 + 4);
    assert.equal(xWeightedLength('café'), 4);
  });

  it('accepts exactly 280 and refuses 281', () => {
    assert.deepEqual(codes('a'.repeat(280)), []);
    assert.deepEqual(codes('a'.repeat(281)), ['text_too_long']);
    assert.deepEqual(codes('日'.repeat(140)), []);
    assert.deepEqual(codes(`${'日'.repeat(140)}a`), ['text_too_long']);
    assert.deepEqual(codes('😀'.repeat(140)), []);
    assert.deepEqual(codes('😀'.repeat(141)), ['text_too_long']);
    const withUrl = `${'a'.repeat(256)} https://example.com/${'x'.repeat(100)}`;
    assert.equal(xWeightedLength(withUrl), 280);
    assert.deepEqual(codes(withUrl), []);
    assert.deepEqual(codes(`b${withUrl}`), ['text_too_long']);
  });

  it('the manifest counts with the very function validation uses', () => {
    for (const message of ['a'.repeat(281), '日本 https://x.com 😀', '']) {
      const count = xManifest.text.count({ message, hasMedia: false, options: {} });
      assert.equal(count.used, xWeightedLength(message));
      assert.equal(count.limit, 280);
    }
  });

  it('needs text or media', () => {
    assert.deepEqual(codes('  '), ['text_required']);
    assert.deepEqual(codes('', [info('image', 'image/png')]), []);
  });
});

describe('X media rules', () => {
  it('takes up to 4 images', () => {
    const images = (n: number) =>
      Array.from({ length: n }, (_, i) => info('image', 'image/jpeg', 1000, `i${i}`));
    assert.deepEqual(codes('hi', images(4)), []);
    assert.deepEqual(codes('hi', images(5)), ['too_many_media']);
  });

  it('takes one video or one GIF, never mixed', () => {
    assert.deepEqual(codes('hi', [info('video', 'video/mp4')]), []);
    assert.deepEqual(codes('hi', [info('gif', 'image/gif')]), []);
    assert.deepEqual(codes('hi', [info('video', 'video/mp4'), info('video', 'video/mp4')]), [
      'media_mix_unsupported',
    ]);
    assert.deepEqual(codes('hi', [info('gif', 'image/gif'), info('image', 'image/png')]), [
      'media_mix_unsupported',
    ]);
    assert.deepEqual(codes('hi', [info('video', 'video/mp4'), info('image', 'image/png')]), [
      'media_mix_unsupported',
    ]);
  });

  it('checks sizes at the documented limits', () => {
    const mb = 1024 * 1024;
    assert.deepEqual(codes('hi', [info('image', 'image/png', 5 * mb)]), []);
    assert.deepEqual(codes('hi', [info('image', 'image/png', 5 * mb + 1)]), ['media_too_large']);
    assert.deepEqual(codes('hi', [info('gif', 'image/gif', 15 * mb)]), []);
    assert.deepEqual(codes('hi', [info('gif', 'image/gif', 15 * mb + 1)]), ['media_too_large']);
    assert.deepEqual(codes('hi', [info('video', 'video/mp4', 512 * mb)]), []);
    assert.deepEqual(codes('hi', [info('video', 'video/mp4', 512 * mb + 1)]), ['media_too_large']);
  });

  it('refuses documents and unsupported video types', () => {
    assert.deepEqual(codes('hi', [info('document', 'application/pdf')]), ['media_type_unsupported']);
    assert.deepEqual(codes('hi', [info('video', 'video/webm')]), ['media_type_unsupported']);
  });
});

describe('X options', () => {
  it('accepts who-can-reply, reply and quote ids', () => {
    const parsed = xOptionsSchema.parse({
      replySettings: 'mentionedUsers',
      replyToPostId: '1850000000000000001',
      quotePostId: '20',
    });
    assert.equal(parsed.replySettings, 'mentionedUsers');
  });

  it('refuses unknown values and misspelt options', () => {
    assert.equal(xOptionsSchema.safeParse({ replySettings: 'nobody' }).success, false);
    assert.equal(xOptionsSchema.safeParse({ replyToPostId: 'https://x.com/a/status/1' }).success, false);
    assert.equal(xOptionsSchema.safeParse({ replyTo: '1' }).success, false);
  });
});
