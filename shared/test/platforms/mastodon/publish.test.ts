import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeServer } from '../../fakes/fake-server.ts';
import { sampleGif, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import {
  account,
  context,
  disabledToken,
  mastodonFixture,
  publisherFor,
  readOnlyToken,
  rejection,
  startMastodon,
  token,
} from './setup.ts';

const fx = mastodonFixture({ maxCharacters: 1000 });

const png = (name = 'dot.png') =>
  memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' });
const mp4 = () =>
  memoryMedia(new Uint8Array(sampleMp4()), { filename: 'clip.mp4', contentType: 'video/mp4' });

describe('Mastodon publishing', () => {
  it('posts a status with the options and returns its id and URL', async () => {
    const result = await fx.publisher.publish(
      { message: 'Hello fediverse' },
      account(fx.fake),
      [],
      { visibility: 'unlisted', spoilerText: 'CW', sensitive: true, language: 'en' },
      context('post-9:masto-1'),
    );
    assert.equal(fx.fake.statuses.length, 1);
    const status = fx.fake.statuses[0]!;
    assert.deepEqual(
      {
        text: status.text,
        visibility: status.visibility,
        spoiler: status.spoilerText,
        sensitive: status.sensitive,
      },
      { text: 'Hello fediverse', visibility: 'unlisted', spoiler: 'CW', sensitive: true },
    );
    assert.equal(status.language, 'en');
    assert.deepEqual(result, { platformPostId: status.id, url: `${fx.fake.url}/@alice/${status.id}` });
    const request = fx.fake.calls('/api/v1/statuses')[0]!;
    assert.equal(request.headers['idempotency-key'], 'post-9:masto-1');
    assert.equal(request.headers.authorization, `Bearer ${token}`);
  });

  it('uploads images with descriptions and attaches them in order', async () => {
    await fx.publisher.publish(
      { message: 'Pictures' },
      account(fx.fake),
      [png('one.png'), png('two.png')],
      { altTexts: ['First', 'Second'] },
      context(),
    );
    const uploads = fx.fake.calls('/api/v2/media');
    assert.deepEqual(
      uploads.map((u) => [
        (u.body as Record<string, string>).description,
        u.files.file?.name,
        u.files.file?.type,
      ]),
      [
        ['First', 'one.png', 'image/png'],
        ['Second', 'two.png', 'image/png'],
      ],
    );
    const ids = [...fx.fake.media.values()].map((m) => m.id);
    assert.deepEqual(fx.fake.statuses[0]!.mediaIds, ids);
    assert.deepEqual(fx.fake.media.get(ids[0]!)!.bytes, samplePng());
    // Images are processed at once (200): no polling.
    assert.equal(fx.fake.calls(/^\/api\/v1\/media\//).length, 0);
  });

  it('polls a video that answers 202 until it is processed, then posts', async () => {
    await fx.publisher.publish({ message: 'A clip' }, account(fx.fake), [mp4()], {}, context());
    const polls = fx.fake.calls(/^\/api\/v1\/media\//, 'GET');
    // Two 206 answers, then 200.
    assert.equal(polls.length, 3);
    assert.equal(fx.fake.statuses.length, 1);
    assert.equal(fx.fake.statuses[0]!.mediaIds.length, 1);
  });

  it('gives up on media that never finishes processing within the time bound', async () => {
    const slow = await startMastodon({ processingPolls: 1_000 });
    try {
      const impatient = publisherFor({ mediaTimeoutMs: 100 });
      const gif = memoryMedia(new Uint8Array(sampleGif()), { filename: 'a.gif', contentType: 'image/gif' });
      const error = await rejection(
        impatient.publish({ message: 'gif' }, account(slow), [gif], {}, context()),
      );
      assert.equal(error.code, 'timeout');
      assert.equal(slow.statuses.length, 0);
    } finally {
      await slow.close();
    }
  });

  it('posts media without text', async () => {
    await fx.publisher.publish({ message: '' }, account(fx.fake), [png()], {}, context());
    assert.equal(fx.fake.statuses.length, 1);
  });

  it("rejects text over the instance's limit with Mastodon's message", async () => {
    await fx.publisher.publish({ message: 'a'.repeat(1000) }, account(fx.fake), [], {}, context('k1'));
    const error = await rejection(
      fx.publisher.publish({ message: 'a'.repeat(1001) }, account(fx.fake), [], {}, context('k2')),
    );
    assert.equal(error.code, 'content_rejected');
    assert.equal(error.status, 422);
    assert.equal(error.retryable, false);
    assert.match(error.message, /Text character limit of 1000 exceeded/);
  });

  it('counts a URL as 23 characters at the server too', async () => {
    const url = `https://example.com/${'p'.repeat(2000)}`;
    await fx.publisher.publish({ message: `${'a'.repeat(976)} ${url}` }, account(fx.fake), [], {}, context());
    assert.equal(fx.fake.statuses.length, 1);
  });

  it('an unsupported file is media_rejected', async () => {
    const pdf = memoryMedia(new Uint8Array([37, 80, 68, 70]), {
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    const error = await rejection(
      fx.publisher.publish({ message: 'doc' }, account(fx.fake), [pdf], {}, context()),
    );
    assert.equal(error.code, 'media_rejected');
    assert.match(error.message, /content type is invalid/);
  });

  it('a revoked token is credentials_invalid, without the token in the message', async () => {
    const error = await rejection(
      fx.publisher.publish({ message: 'x' }, account(fx.fake, 'revoked-secret'), [], {}, context()),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(error.status, 401);
    assert.doesNotMatch(JSON.stringify(error.toJSON()), /revoked-secret/);
  });

  it('a token without write scope is credentials_invalid; a disabled login is target_unreachable', async () => {
    const scope = await rejection(
      fx.publisher.publish({ message: 'x' }, account(fx.fake, readOnlyToken), [], {}, context()),
    );
    assert.equal(scope.code, 'credentials_invalid');
    assert.equal(scope.status, 403);
    const disabled = await rejection(
      fx.publisher.publish({ message: 'x' }, account(fx.fake, disabledToken), [], {}, context()),
    );
    assert.equal(disabled.code, 'target_unreachable');
  });

  it('a server without the Mastodon API (404) is target_unreachable', async () => {
    const notMastodon = await new FakeServer().start();
    try {
      const error = await rejection(
        fx.publisher.publish({ message: 'x' }, account(notMastodon), [], {}, context()),
      );
      assert.equal(error.code, 'target_unreachable');
      assert.equal(error.status, 404);
    } finally {
      await notMastodon.close();
    }
  });
});

describe('Mastodon credentials check', () => {
  it('returns display name, full handle, id and avatar', async () => {
    const profile = await fx.publisher.verifyCredentials(account(fx.fake));
    assert.deepEqual(profile, {
      name: 'Alice',
      username: `@alice@${new URL(fx.fake.url).host}`,
      platformAccountId: '109',
      avatarUrl: 'https://files.example/alice.png',
    });
  });

  it('refuses an invalid token', async () => {
    const error = await rejection(fx.publisher.verifyCredentials(account(fx.fake, 'nope')));
    assert.equal(error.code, 'credentials_invalid');
  });
});
