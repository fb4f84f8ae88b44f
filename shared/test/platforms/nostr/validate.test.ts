import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { nostrConfigFromEnv } from '../../../src/platforms/nostr/index.ts';
import { nostrManifest } from '../../../src/platforms/nostr/manifest.ts';
import { nostrOptionsSchema } from '../../../src/platforms/nostr/options.ts';
import { account, publisherFor } from './setup.ts';

const media = (contentType: string, url = 'https://cdn.example/m/a'): MediaInfo => ({
  key: 'a',
  filename: 'a',
  contentType,
  size: 10,
  kind: contentType.startsWith('video/') ? 'video' : 'image',
  url,
});
const codes = (outcome: { errors: { code: string }[] }) => outcome.errors.map((e) => e.code);

describe('Nostr validation', () => {
  const publisher = publisherFor({ relays: ['wss://relay.example'] });

  it('counts UTF-8 bytes of the text, as the manifest counter does', async () => {
    const long = 'é'.repeat(32_000); // 64,000 bytes
    assert.deepEqual(codes(await publisher.validate({ message: long }, account(), [], {})), []);
    assert.deepEqual(codes(await publisher.validate({ message: `${long}a` }, account(), [], {})), [
      'text_too_long',
    ]);
    assert.deepEqual(nostrManifest.text.count({ message: `${long}a`, hasMedia: false, options: {} }), {
      used: 64_001,
      limit: 64_000,
      unit: 'bytes (UTF-8)',
    });
  });

  it('needs text or media, images or videos, and relays', async () => {
    assert.deepEqual(codes(await publisher.validate({ message: ' ' }, account(), [], {})), ['text_required']);
    assert.deepEqual(
      codes(await publisher.validate({ message: '' }, account(), [media('image/png')], {})),
      [],
    );
    assert.deepEqual(
      codes(await publisher.validate({ message: 'x' }, account(), [media('application/pdf')], {})),
      ['media_type_unsupported'],
    );
    assert.deepEqual(codes(await publisherFor().validate({ message: 'x' }, account(), [], {})), [
      'relays_required',
    ]);
    assert.deepEqual(
      codes(
        await publisherFor().validate({ message: 'x' }, account(), [], { relays: ['wss://relay.example'] }),
      ),
      [],
    );
  });

  it('warns when media URLs are not public (clients fetch them)', async () => {
    const outcome = await publisher.validate(
      { message: 'x' },
      account(),
      [media('image/png', 'http://127.0.0.1:3000/media/a.png')],
      {},
    );
    assert.deepEqual(
      outcome.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
  });

  it('refuses a malformed key as credentials_invalid', async () => {
    const outcome = await publisher.validate(
      { message: 'x' },
      account({ credentials: { secretKey: 'nope' } }),
      [],
      {},
    );
    assert.deepEqual(codes(outcome), ['credentials_invalid']);
  });

  it('relays are wss:// or ws:// URLs, in the option and in NOSTR_RELAYS', () => {
    assert.equal(nostrOptionsSchema.safeParse({ relays: ['https://relay.example'] }).success, false);
    assert.equal(nostrOptionsSchema.safeParse({ relays: [] }).success, false);
    assert.equal(nostrOptionsSchema.safeParse({ relays: ['wss://relay.example'] }).success, true);
    assert.deepEqual(
      nostrConfigFromEnv({ NOSTR_RELAYS: ' wss://a.example, ws://b.example:7777 ,wss://a.example' }).relays,
      ['wss://a.example', 'ws://b.example:7777'],
    );
    assert.throws(
      () => nostrConfigFromEnv({ NOSTR_RELAYS: 'relay.example' }),
      /NOSTR_RELAYS: "relay.example"/,
    );
  });
});
