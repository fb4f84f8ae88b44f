import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { threadsLength } from '../../../src/platforms/threads/count.ts';
import { threadsManifest } from '../../../src/platforms/threads/manifest.ts';
import { threadsOptionsSchema } from '../../../src/platforms/threads/options.ts';
import { validateThreadsPost } from '../../../src/platforms/threads/validate.ts';

const info = (
  kind: MediaInfo['kind'],
  contentType: string,
  size = 1000,
  url = 'https://cdn.example.com/m',
): MediaInfo => ({
  key: 'k',
  filename: 'f',
  contentType,
  size,
  kind,
  url,
});
const check = (message: string, media: MediaInfo[] = []) => validateThreadsPost({ message }, media, {});
const codes = (message: string, media: MediaInfo[] = []) => check(message, media).errors.map((e) => e.code);

describe('Threads counting', () => {
  it('counts characters, and emoji as their UTF-8 bytes', () => {
    assert.equal(threadsLength('hello'), 5);
    assert.equal(threadsLength('日本語'), 3);
    assert.equal(threadsLength('😀'), 4);
    assert.equal(threadsLength('👨‍👩‍👧‍👦'), 25);
    assert.equal(threadsLength('https://example.com'), 19);
  });

  it('accepts 500 and refuses 501', () => {
    assert.deepEqual(codes('a'.repeat(500)), []);
    assert.deepEqual(codes('a'.repeat(501)), ['text_too_long']);
    assert.deepEqual(codes('😀'.repeat(125)), []);
    assert.deepEqual(codes(`${'😀'.repeat(125)}a`), ['text_too_long']);
    assert.deepEqual(codes('日'.repeat(500)), []);
  });

  it('the manifest counts with the function validation uses', () => {
    for (const message of ['a'.repeat(501), '😀 日本', '']) {
      assert.equal(
        threadsManifest.text.count({ message, hasMedia: false, options: {} }).used,
        threadsLength(message),
      );
    }
  });

  it('allows 5 links and refuses a sixth', () => {
    const links = (n: number) => Array.from({ length: n }, (_, i) => `https://e${i}.example.com`).join(' ');
    assert.deepEqual(codes(links(5)), []);
    assert.deepEqual(codes(links(6)), ['too_many_links']);
    assert.deepEqual(codes(`${links(5)} https://e0.example.com`), [], 'the same link twice counts once');
  });

  it('needs text or media', () => {
    assert.deepEqual(codes(' '), ['text_required']);
    assert.deepEqual(codes('', [info('image', 'image/png')]), []);
  });
});

describe('Threads media rules', () => {
  it('takes one item or a carousel of up to 20', () => {
    const images = (n: number) => Array.from({ length: n }, () => info('image', 'image/jpeg'));
    assert.deepEqual(codes('x', images(1)), []);
    assert.deepEqual(codes('x', images(2)), []);
    assert.deepEqual(codes('x', images(20)), []);
    assert.deepEqual(codes('x', images(21)), ['too_many_media']);
    assert.deepEqual(codes('x', [info('image', 'image/png'), info('video', 'video/mp4')]), []);
  });

  it('takes JPEG and PNG up to 8 MB, MP4 and MOV up to 1 GB', () => {
    const mb = 1024 * 1024;
    assert.deepEqual(codes('x', [info('image', 'image/png', 8 * mb)]), []);
    assert.deepEqual(codes('x', [info('image', 'image/png', 8 * mb + 1)]), ['media_too_large']);
    assert.deepEqual(codes('x', [info('image', 'image/webp')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('gif', 'image/gif')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('video', 'video/quicktime', 1024 * mb)]), []);
    assert.deepEqual(codes('x', [info('video', 'video/mp4', 1024 * mb + 1)]), ['media_too_large']);
    assert.deepEqual(codes('x', [info('document', 'application/pdf')]), ['media_type_unsupported']);
  });

  it('warns media_url_not_public when Threads could not fetch the media URL', () => {
    const local = check('x', [info('image', 'image/png', 10, 'http://127.0.0.1:3000/media/a.png')]);
    assert.deepEqual(local.errors, []);
    assert.deepEqual(
      local.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    assert.equal(local.warnings[0]!.path, 'media[0]');
    for (const url of ['http://localhost/m', 'http://192.168.1.2/m', 'http://10.0.0.1/m', 'http://[::1]/m']) {
      assert.deepEqual(
        check('x', [info('image', 'image/png', 10, url)]).warnings.map((w) => w.code),
        ['media_url_not_public'],
        url,
      );
    }
    assert.deepEqual(
      check('x', [info('image', 'image/png', 10, 'https://media.example.com/a.png')]).warnings,
      [],
    );
  });
});

describe('Threads options', () => {
  it('accepts reply control, topic, reply and quote ids', () => {
    assert.equal(
      threadsOptionsSchema.safeParse({
        replyControl: 'mentioned_only',
        topicTag: 'Postwave',
        replyToId: '1789',
        quotePostId: '1790',
      }).success,
      true,
    );
  });
  it('refuses bad values', () => {
    assert.equal(threadsOptionsSchema.safeParse({ replyControl: 'nobody' }).success, false);
    assert.equal(threadsOptionsSchema.safeParse({ topicTag: 'a.b' }).success, false);
    assert.equal(threadsOptionsSchema.safeParse({ topicTag: 'x'.repeat(51) }).success, false);
    assert.equal(threadsOptionsSchema.safeParse({ reply_control: 'everyone' }).success, false);
  });
});
