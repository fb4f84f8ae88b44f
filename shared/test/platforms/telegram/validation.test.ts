import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { TelegramPublisher } from '../../../src/platforms/telegram/publisher.ts';
import { visibleLength } from '../../../src/platforms/telegram/visible-text.ts';
import { mediaFile } from './media.ts';
import { account } from './setup.ts';

const limits = { maxPhotoBytes: 1000, maxFileBytes: 2000 };
const publisher = new TelegramPublisher({ limits });

async function codes(message: string, media: MediaInfo[] = [], options: Record<string, unknown> = {}) {
  const outcome = await publisher.validate({ message }, account('@news'), media, options);
  return outcome.errors.map((e) => e.code);
}

const emoji = '😀'; // one code point, two UTF-16 code units
const photo = () => mediaFile('image/jpeg');
const video = () => mediaFile('video/mp4');
const pdf = () => mediaFile('application/pdf');
const gif = () => mediaFile('image/gif');

describe('Telegram text and caption limits (UTF-16 code units)', () => {
  const cases: [string, string, MediaInfo[], string[]][] = [
    ['4096 ASCII characters', 'a'.repeat(4096), [], []],
    ['4097 ASCII characters', 'a'.repeat(4097), [], ['text_too_long']],
    ['2048 emoji = 4096 units', emoji.repeat(2048), [], []],
    ['2048 emoji and one letter = 4097 units', `${emoji.repeat(2048)}a`, [], ['text_too_long']],
    ['4095 letters and an emoji = 4097 units', `${'a'.repeat(4095)}${emoji}`, [], ['text_too_long']],
    ['astral CJK: 2048 × 𠀋 = 4096 units', '𠀋'.repeat(2048), [], []],
    ['caption of 1024', 'a'.repeat(1024), [photo()], []],
    ['caption of 1025', 'a'.repeat(1025), [photo()], ['caption_too_long']],
    ['caption of 512 emoji = 1024 units', emoji.repeat(512), [photo()], []],
    ['caption of 512 emoji and a letter', `${emoji.repeat(512)}a`, [photo()], ['caption_too_long']],
    ['caption of 1023 letters and an emoji', `${'a'.repeat(1023)}${emoji}`, [video()], ['caption_too_long']],
    ['album caption of 1025', 'a'.repeat(1025), [photo(), photo()], ['caption_too_long']],
    ['empty message, no media', '', [], ['text_required']],
    ['whitespace only, no media', ' \n\t ', [], ['text_required']],
    ['empty caption with media', '', [photo()], []],
  ];
  for (const [name, message, media, expected] of cases) {
    it(name, async () => assert.deepEqual(await codes(message, media), expected));
  }

  it('says the count and the limit', async () => {
    const outcome = await publisher.validate({ message: `${emoji.repeat(2048)}a` }, account('@news'), [], {});
    assert.match(outcome.errors[0]!.message, /4097 .*at most 4096/);
    assert.equal(outcome.errors[0]!.path, 'message');
    const caption = await publisher.validate({ message: 'a'.repeat(1025) }, account('@news'), [photo()], {});
    assert.match(caption.errors[0]!.message, /1025 .*at most 1024/);
  });

  it('counts what the reader sees when a parse mode is set', async () => {
    const html = `<b>${'a'.repeat(4096)}</b>`;
    assert.deepEqual(await codes(html, [], { parseMode: 'HTML' }), []);
    assert.deepEqual(await codes(html, [], {}), ['text_too_long']);
    assert.deepEqual(await codes(`<i>${'&amp;'.repeat(1025)}</i>`, [photo()], { parseMode: 'HTML' }), [
      'caption_too_long',
    ]);
    const markdown = `*${'b'.repeat(4094)}* \\.`;
    assert.deepEqual(await codes(markdown, [], { parseMode: 'MarkdownV2' }), []);
  });
});

describe('visibleLength', () => {
  const cases: [string, 'HTML' | 'MarkdownV2' | undefined, number][] = [
    ['plain <b>', undefined, 9],
    ['<b>bold</b> &lt;3 &#128512;', 'HTML', 10],
    ['<a href="https://example.com/a?b=1">link</a>', 'HTML', 4],
    ['*bold* _it_ __u__ ~s~ ||sp||', 'MarkdownV2', 14],
    ['[link](https://example.com/a-b.c) \\. \\!', 'MarkdownV2', 8],
    ['`a*b` ```js\nx_y```', 'MarkdownV2', 7],
    ['>quote', 'MarkdownV2', 5],
  ];
  for (const [text, mode, expected] of cases) {
    it(`${mode ?? 'plain'}: ${JSON.stringify(text)} is ${expected}`, () =>
      assert.equal(visibleLength(text, mode), expected));
  }
});

describe('Telegram media rules', () => {
  const many = (n: number, make: () => MediaInfo) => Array.from({ length: n }, make);
  const cases: [string, MediaInfo[], string[]][] = [
    ['one photo', [photo()], []],
    ['one video', [video()], []],
    ['one GIF', [gif()], []],
    ['one PDF', [pdf()], []],
    ['2 photos', many(2, photo), []],
    ['10 photos and videos', [...many(5, photo), ...many(5, video)], []],
    ['11 photos', many(11, photo), ['too_many_media']],
    ['10 documents', many(10, pdf), []],
    ['11 documents', many(11, pdf), ['too_many_media']],
    ['a document with a photo', [pdf(), photo()], ['media_mix_unsupported']],
    ['a photo with a document', [photo(), video(), pdf()], ['media_mix_unsupported']],
    ['a WebM (sent as a file) with a photo', [mediaFile('video/webm'), photo()], ['media_mix_unsupported']],
    ['a GIF in an album', [gif(), photo()], ['media_mix_unsupported']],
    ['two GIFs', [gif(), gif()], ['media_mix_unsupported']],
    ['an unsupported type', [mediaFile('audio/mpeg')], ['media_type_unsupported']],
  ];
  for (const [name, media, expected] of cases) {
    it(name, async () => assert.deepEqual(await codes('caption', media), expected));
  }

  it('explains the album limit with the count', async () => {
    const outcome = await publisher.validate({ message: '' }, account('@news'), many(11, photo), {});
    assert.match(outcome.errors[0]!.message, /11 media files.*at most 10/);
  });

  it('warns that non-MP4 video goes out as a file', async () => {
    const outcome = await publisher.validate(
      { message: '' },
      account('@news'),
      [mediaFile('video/quicktime')],
      {},
    );
    assert.deepEqual(outcome.errors, []);
    assert.deepEqual(
      outcome.warnings.map((w) => w.code),
      ['media_sent_as_file'],
    );
  });
});

describe('Telegram size limits (configurable)', () => {
  const cases: [string, MediaInfo, string[]][] = [
    ['photo at the photo limit', mediaFile('image/png', { size: 1000 }), []],
    ['photo one byte over', mediaFile('image/png', { size: 1001 }), ['media_too_large']],
    ['video at the file limit', mediaFile('video/mp4', { size: 2000 }), []],
    ['video one byte over', mediaFile('video/mp4', { size: 2001 }), ['media_too_large']],
    ['GIF over the photo limit but within the file limit', mediaFile('image/gif', { size: 1500 }), []],
    ['document one byte over', mediaFile('application/pdf', { size: 2001 }), ['media_too_large']],
  ];
  for (const [name, file, expected] of cases) {
    it(name, async () => assert.deepEqual(await codes('', [file]), expected));
  }

  it('names the file, its size and the limit', async () => {
    const file = mediaFile('image/png', { size: 1001, filename: 'cat.png' });
    const outcome = await publisher.validate({ message: '' }, account('@news'), [file], {});
    assert.equal(outcome.errors[0]!.path, 'media[0]');
    assert.match(outcome.errors[0]!.message, /cat\.png is 1001 bytes.*at most 1000 bytes/);
  });

  it('defaults to 10 MB photos and 50 MB files', async () => {
    const defaults = new TelegramPublisher();
    const sized = (type: string, size: number): MediaInfo => ({ ...mediaFile(type), size });
    const check = async (file: MediaInfo) =>
      (await defaults.validate({ message: '' }, account('@news'), [file], {})).errors.map((e) => e.code);
    assert.deepEqual(await check(sized('image/jpeg', 10_000_000)), []);
    assert.deepEqual(await check(sized('image/jpeg', 10_000_001)), ['media_too_large']);
    assert.deepEqual(await check(sized('video/mp4', 50_000_000)), []);
    assert.deepEqual(await check(sized('video/mp4', 50_000_001)), ['media_too_large']);
  });
});

describe('Telegram options schema', () => {
  const schema = publisher.optionsSchema;
  it('accepts every option', () => {
    const options = {
      disableNotification: true,
      protectContent: false,
      linkPreview: false,
      messageThreadId: 7,
      parseMode: 'MarkdownV2',
    };
    assert.deepEqual(schema.parse(options), options);
    assert.deepEqual(schema.parse({}), {});
  });
  const invalid: [string, Record<string, unknown>][] = [
    ['a string for a boolean', { disableNotification: 'true' }],
    ['a number for a boolean', { protectContent: 1 }],
    ['an unknown parse mode', { parseMode: 'Markdown' }],
    ['a fractional thread id', { messageThreadId: 1.5 }],
    ['a negative thread id', { messageThreadId: -3 }],
    ['a thread id as a string', { messageThreadId: '7' }],
    ['a misspelt key', { disableNotifications: true }],
  ];
  for (const [name, options] of invalid) {
    it(`rejects ${name}`, () => assert.equal(schema.safeParse(options).success, false));
  }

  it('names the unknown key', () => {
    const result = schema.safeParse({ protect_content: true });
    assert.equal(result.success, false);
    assert.match(JSON.stringify(result.error?.issues), /protect_content/);
  });
});

describe('Telegram credentials schema', () => {
  it('accepts a BotFather token and rejects anything else without echoing it', () => {
    assert.equal(publisher.credentialsSchema.safeParse({ botToken: '123456:AAH-abc_DEF' }).success, true);
    for (const botToken of ['', 'abc', '777000', '777:abc/../x', 42]) {
      const result = publisher.credentialsSchema.safeParse({ botToken });
      assert.equal(result.success, false, String(botToken));
      if (typeof botToken === 'string' && botToken)
        assert.doesNotMatch(result.error!.message, new RegExp(botToken.replace(/[.*/]/g, '\\$&')));
    }
  });
});
