import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mediaKindOf } from '../../../src/media/kinds.ts';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import type { FakeMastodon } from '../../fakes/mastodon.ts';
import { account, publisherFor, startMastodon } from './setup.ts';

const info = (contentType: string, size: number, name = 'file'): MediaInfo => ({
  key: name,
  filename: name,
  contentType,
  size,
  kind: mediaKindOf(contentType),
  url: `https://media.example/${name}`,
});
const images = (count: number) =>
  Array.from({ length: count }, (_, i) => info('image/png', 1000, `p${i}.png`));

let standard: FakeMastodon;
let roomy: FakeMastodon;
before(async () => {
  standard = await startMastodon();
  roomy = await startMastodon({ maxCharacters: 1000, maxMediaAttachments: 6, imageSizeLimit: 1_000_000 });
});
after(async () => {
  await standard.close();
  await roomy.close();
});

describe('Mastodon validation against the instance limits', () => {
  const publisher = publisherFor();
  const codes = async (fake: FakeMastodon, message: string, media: MediaInfo[] = [], options = {}) =>
    (await publisher.validate({ message }, account(fake), media, options)).errors.map((e) => e.code);

  it('allows 500 characters and refuses 501 on a default instance', async () => {
    assert.deepEqual(await codes(standard, 'a'.repeat(500)), []);
    assert.deepEqual(await codes(standard, 'a'.repeat(501)), ['text_too_long']);
  });

  it('uses a custom instance limit of 1000', async () => {
    assert.deepEqual(await codes(roomy, 'a'.repeat(1000)), []);
    assert.deepEqual(await codes(roomy, 'a'.repeat(1001)), ['text_too_long']);
  });

  it('counts a long URL as 23 characters', async () => {
    const url = `https://example.com/${'p'.repeat(300)}`;
    assert.deepEqual(await codes(standard, `${'a'.repeat(476)} ${url}`), []);
    assert.deepEqual(await codes(standard, `${'a'.repeat(477)} ${url}`), ['text_too_long']);
  });

  it('counts the content warning with the text', async () => {
    assert.deepEqual(await codes(standard, 'a'.repeat(490), [], { spoilerText: '0123456789' }), []);
    assert.deepEqual(await codes(standard, 'a'.repeat(491), [], { spoilerText: '0123456789' }), [
      'text_too_long',
    ]);
  });

  it('allows the instance number of attachments and no more', async () => {
    assert.deepEqual(await codes(standard, 'pics', images(4)), []);
    assert.deepEqual(await codes(standard, 'pics', images(5)), ['too_many_media']);
    assert.deepEqual(await codes(roomy, 'pics', images(6)), []);
  });

  it('checks sizes and types against the instance', async () => {
    assert.deepEqual(await codes(roomy, 'big', [info('image/png', 1_000_000)]), []);
    assert.deepEqual(await codes(roomy, 'big', [info('image/png', 1_000_001)]), ['media_too_large']);
    assert.deepEqual(await codes(standard, 'doc', [info('application/pdf', 10)]), ['media_type_unsupported']);
    assert.deepEqual(await codes(standard, 'mix', [info('video/mp4', 10), ...images(1)]), [
      'media_mix_unsupported',
    ]);
  });

  it('reads the instance limits once and reuses them', async () => {
    const before = standard.calls('/api/v2/instance').length;
    const fresh = publisherFor();
    await fresh.validate({ message: 'one' }, account(standard), [], {});
    await fresh.validate({ message: 'two' }, account(standard), [], {});
    assert.equal(standard.calls('/api/v2/instance').length - before, 1);
  });

  it("falls back to Mastodon's defaults with a warning when the instance cannot be asked", async () => {
    const offline = { url: 'http://127.0.0.1:9' };
    const outcome = await publisher.validate({ message: 'a'.repeat(501) }, account(offline), [], {});
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.deepEqual(
      outcome.warnings.map((w) => w.code),
      ['instance_limits_unknown'],
    );
  });

  it('reports malformed credentials as a validation error', async () => {
    const outcome = await publisher.validate(
      { message: 'x' },
      { ...account(standard), credentials: { instanceUrl: 'not a url', accessToken: 't' } },
      [],
      {},
    );
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['credentials_invalid'],
    );
  });
});
