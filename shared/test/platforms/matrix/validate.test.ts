import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { eventBytes, textContent } from '../../../src/platforms/matrix/content.ts';
import { matrixManifest } from '../../../src/platforms/matrix/manifest.ts';
import { validateMatrixPost } from '../../../src/platforms/matrix/validate.ts';
import { plainTextToHtml } from '../../../src/platforms/text-html.ts';

const account = {
  id: 'm1',
  platform: 'matrix',
  platformAccountId: '!room:example.org',
  credentials: { homeserverUrl: 'https://matrix.example.org', accessToken: 'syt_x' },
};
const file = (size: number): MediaInfo => ({
  key: 'k',
  filename: 'a.png',
  contentType: 'image/png',
  size,
  kind: 'image',
  url: 'https://media.example/a.png',
});
const codes = (o: { errors: { code: string }[] }) => o.errors.map((e) => e.code);

describe('Matrix HTML and event size', () => {
  it('renders paragraphs, line breaks and links, escaping everything else', () => {
    assert.equal(
      plainTextToHtml('Hello <world> & "you"\nsecond line\n\nSee https://example.com/a?b=1&c=2.'),
      '<p>Hello &lt;world&gt; &amp; &quot;you&quot;<br>second line</p><p>See <a href="https://example.com/a?b=1&amp;c=2">https://example.com/a?b=1&amp;c=2</a>.</p>',
    );
    assert.equal(
      plainTextToHtml('javascript:alert(1) <a href="x">'),
      '<p>javascript:alert(1) &lt;a href=&quot;x&quot;&gt;</p>',
    );
    assert.deepEqual(textContent('Hi', true), {
      msgtype: 'm.notice',
      body: 'Hi',
      format: 'org.matrix.custom.html',
      formatted_body: '<p>Hi</p>',
    });
  });

  it('refuses an event over 65,536 bytes, dropping the HTML copy first', () => {
    const half = 'a'.repeat(40_000);
    const outcome = validateMatrixPost({ message: half }, account, [], {}, undefined);
    assert.deepEqual(codes(outcome), []);
    assert.deepEqual(
      outcome.warnings.map((w) => w.code),
      ['formatting_dropped'],
    );
    assert.equal(textContent(half, false).formatted_body, undefined);
    const small = validateMatrixPost({ message: 'a'.repeat(30_000) }, account, [], {}, undefined);
    assert.deepEqual(small.warnings, []);
    assert.deepEqual(codes(validateMatrixPost({ message: 'a'.repeat(64_000) }, account, [], {}, undefined)), [
      'text_too_long',
    ]);
    // UTF-8: a 4-byte emoji counts 4 (and JSON escapes nothing of it).
    const emoji = '😀'.repeat(15_800);
    assert.ok(eventBytes(textContent(emoji, false)) > 63_000);
    assert.deepEqual(codes(validateMatrixPost({ message: emoji }, account, [], {}, undefined)), []);
    assert.deepEqual(
      codes(validateMatrixPost({ message: `${emoji}${'😀'.repeat(200)}` }, account, [], {}, undefined)),
      ['text_too_long'],
    );
    const count = matrixManifest.text.count({ message: 'a'.repeat(64_000), hasMedia: false, options: {} });
    assert.equal(count.limit, 65_536);
    assert.ok(count.used > count.limit);
  });

  it('checks the room, the credentials, empty posts and the server upload limit', () => {
    assert.deepEqual(
      codes(
        validateMatrixPost({ message: 'x' }, { ...account, platformAccountId: 'room' }, [], {}, undefined),
      ),
      ['account_invalid'],
    );
    assert.deepEqual(
      codes(
        validateMatrixPost(
          { message: 'x' },
          { ...account, platformAccountId: '#alias:example.org' },
          [],
          {},
          undefined,
        ),
      ),
      [],
    );
    assert.deepEqual(
      codes(validateMatrixPost({ message: 'x' }, { ...account, credentials: {} }, [], {}, undefined)),
      ['credentials_invalid'],
    );
    assert.deepEqual(codes(validateMatrixPost({ message: ' ' }, account, [], {}, undefined)), [
      'text_required',
    ]);
    assert.deepEqual(codes(validateMatrixPost({ message: '' }, account, [file(100)], {}, 100)), []);
    assert.deepEqual(codes(validateMatrixPost({ message: '' }, account, [file(101)], {}, 100)), [
      'media_too_large',
    ]);
    assert.deepEqual(codes(validateMatrixPost({ message: '' }, account, [file(1e9)], {}, undefined)), []);
  });
});
