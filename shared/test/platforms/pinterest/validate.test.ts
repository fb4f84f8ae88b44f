import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { pinterestManifest } from '../../../src/platforms/pinterest/manifest.ts';
import { pinterestOptionsSchema } from '../../../src/platforms/pinterest/options.ts';
import { validatePinterestPin } from '../../../src/platforms/pinterest/validate.ts';

const info = (kind: MediaInfo['kind'], contentType: string, extra: Partial<MediaInfo> = {}): MediaInfo => ({
  key: 'k',
  filename: 'f',
  contentType,
  size: 1000,
  kind,
  url: 'https://cdn.example.com/m',
  ...extra,
});
const png = info('image', 'image/png');
const mp4 = info('video', 'video/mp4');
const codes = (message: string, media: MediaInfo[]) =>
  validatePinterestPin({ message }, media).errors.map((e) => e.code);

describe('Pinterest validation', () => {
  it('counts the description in characters (code points) up to 500, as the counter does', () => {
    assert.deepEqual(codes('a'.repeat(500), [png]), []);
    assert.deepEqual(codes('a'.repeat(501), [png]), ['description_too_long']);
    assert.deepEqual(codes('😀'.repeat(500), [png]), []);
    const count = pinterestManifest.text.count({ message: '😀ab', hasMedia: true, options: {} });
    assert.deepEqual([count.used, count.limit], [3, 500]);
  });

  it('needs an image, a video, or a carousel of 2 to 5 images', () => {
    assert.deepEqual(codes('x', []), ['media_required']);
    assert.deepEqual(codes('x', [png, png, png, png, png]), []);
    assert.deepEqual(codes('x', [png, png, png, png, png, png]), ['too_many_media']);
    assert.deepEqual(codes('x', [mp4, png]), ['media_mix_unsupported']);
    assert.deepEqual(codes('x', [info('video', 'video/webm')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('image', 'image/svg+xml')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('image', 'image/jpeg', { size: 21 * 1024 * 1024 })]), [
      'media_too_large',
    ]);
  });

  it('takes alt text up to 500 characters', () => {
    assert.deepEqual(codes('x', [info('image', 'image/png', { altText: 'a'.repeat(500) })]), []);
    assert.deepEqual(codes('x', [info('image', 'image/png', { altText: 'a'.repeat(501) })]), [
      'alt_text_too_long',
    ]);
    assert.equal(pinterestManifest.features.altText?.maxLength, 500);
  });

  it('warns when Pinterest must fetch an image from a URL that is not public (videos are uploaded)', () => {
    const local = { url: 'http://localhost:3000/media/a' };
    const warnings = (media: MediaInfo[]) =>
      validatePinterestPin({ message: 'x' }, media).warnings.map((w) => w.code);
    assert.deepEqual(warnings([info('image', 'image/png', local)]), ['media_url_not_public']);
    assert.deepEqual(warnings([info('video', 'video/mp4', local)]), []);
  });

  it('counts the title in characters (code points) up to 100, as the description', () => {
    const title = (value: string) => pinterestOptionsSchema.safeParse({ title: value });
    // 100 emoji are 200 UTF-16 units but 100 characters to Pinterest.
    assert.equal(title('😀'.repeat(100)).success, true);
    assert.equal(title('😀'.repeat(60)).success, true);
    assert.equal(title(`${'😀'.repeat(99)}ab`).success, false);
    const tooLong = title('a'.repeat(101));
    assert.equal(tooLong.success, false);
    assert.deepEqual(
      tooLong.error?.issues.map((i) => i.path),
      [['title']],
    );
    assert.match(tooLong.error?.issues[0]?.message ?? '', /up to 100 characters/);
  });

  it('has strict options: title up to 100, an http(s) link, a section id', () => {
    const ok = (value: unknown) => pinterestOptionsSchema.safeParse(value).success;
    assert.equal(
      ok({ title: 'a'.repeat(100), link: 'https://example.com/x', boardSectionId: '5027629787972154693' }),
      true,
    );
    assert.equal(ok({ title: 'a'.repeat(101) }), false);
    assert.equal(ok({ link: 'javascript:alert(1)' }), false);
    assert.equal(ok({ link: 'ftp://example.com' }), false);
    assert.equal(ok({ board: '1' }), false);
    assert.equal(ok({ boardSectionId: 'desserts' }), false);
    const section = pinterestManifest.options.find((o) => o.name === 'boardSectionId');
    assert.deepEqual(section?.choicesFrom, {});
  });
});
