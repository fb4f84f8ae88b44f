import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { googleChatManifest } from '../../../src/platforms/google_chat/manifest.ts';
import { validateGoogleChatPost } from '../../../src/platforms/google_chat/validate.ts';
import { parseChatWebhookUrl } from '../../../src/platforms/google_chat/webhook-url.ts';

const hook =
  'https://chat.googleapis.com/v1/spaces/AAAAbCdEfGh/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token=abc%3Ddef';
const account = {
  id: 'g1',
  platform: 'google_chat',
  platformAccountId: 'AAAAbCdEfGh',
  credentials: { webhookUrl: hook },
};
const image = (index: number, contentType = 'image/png'): MediaInfo => ({
  key: `k${index}`,
  filename: `${index}.png`,
  contentType,
  size: 10,
  kind: 'image',
  url: `https://media.example/${index}.png`,
});
const codes = (o: { errors: { code: string }[] }) => o.errors.map((e) => e.code);

describe('Google Chat webhook URLs', () => {
  it('takes the URL "Add webhook" copies and names its space', () => {
    assert.equal(parseChatWebhookUrl(hook)?.space, 'AAAAbCdEfGh');
    assert.equal(parseChatWebhookUrl(`${hook}&threadKey=x`)?.space, 'AAAAbCdEfGh');
    assert.equal(
      parseChatWebhookUrl('http://127.0.0.1:9000/v1/spaces/S1/messages?key=k&token=t')?.space,
      'S1',
    );
  });

  it('refuses another host, plain http, a missing key or token, another path', () => {
    for (const url of [
      hook.replace('chat.googleapis.com', 'chat.example.com'),
      hook.replace('https:', 'http:'),
      hook.replace(/&token=[^&]+/, ''),
      hook.replace(/key=[^&]+&/, ''),
      hook.replace('/messages', '/members'),
      'nonsense',
    ]) {
      assert.equal(parseChatWebhookUrl(url), undefined, url);
    }
  });
});

describe('Google Chat validation', () => {
  it('counts 32,000 bytes of UTF-8 text, as the composer does', () => {
    assert.deepEqual(codes(validateGoogleChatPost({ message: 'a'.repeat(32_000) }, account, [])), []);
    assert.deepEqual(codes(validateGoogleChatPost({ message: 'a'.repeat(32_001) }, account, [])), [
      'text_too_long',
    ]);
    assert.deepEqual(codes(validateGoogleChatPost({ message: 'é'.repeat(16_001) }, account, [])), [
      'text_too_long',
    ]);
    assert.deepEqual(googleChatManifest.text.count({ message: 'é😀', hasMedia: false, options: {} }), {
      used: 6,
      limit: 32_000,
      unit: 'bytes',
    });
    // The image card counts toward the same limit.
    assert.deepEqual(codes(validateGoogleChatPost({ message: 'a'.repeat(31_950) }, account, [image(0)])), [
      'message_too_large',
    ]);
  });

  it('takes PNG, JPEG and GIF images, at most 10, needs text or an image and a webhook URL', () => {
    assert.deepEqual(codes(validateGoogleChatPost({ message: '' }, account, [image(0, 'image/gif')])), []);
    assert.deepEqual(codes(validateGoogleChatPost({ message: 'x' }, account, [image(0, 'video/mp4')])), [
      'media_type_unsupported',
    ]);
    assert.deepEqual(
      codes(
        validateGoogleChatPost(
          { message: 'x' },
          account,
          Array.from({ length: 11 }, (_, i) => image(i)),
        ),
      ),
      ['too_many_media'],
    );
    assert.deepEqual(codes(validateGoogleChatPost({ message: ' ' }, account, [])), ['text_required']);
    assert.deepEqual(
      codes(
        validateGoogleChatPost(
          { message: 'x' },
          { ...account, credentials: { webhookUrl: 'https://x.example/y' } },
          [],
        ),
      ),
      ['credentials_invalid'],
    );
  });
});
