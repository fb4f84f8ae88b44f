import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeX, sampleMp4, samplePng, startFakeX } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server publishing to X through real HTTP, against the fake X API. */
describe('self-hosted: X', () => {
  let x: FakeX;
  let server: TestServer;
  before(async () => {
    x = await startFakeX({ processingPolls: 1 });
    const credentials = x.credentials();
    server = await startTestServer({
      accounts: [
        { id: 'x-main', platform: 'x', platformAccountId: x.user.id, username: x.user.username, credentials },
        {
          id: 'x-stale',
          platform: 'x',
          platformAccountId: x.user.id,
          credentials: { ...x.credentials({ expiresInSeconds: 10 }) },
        },
      ],
      env: { X_API_URL: x.url },
    });
  });
  after(async () => {
    await server.close();
    await x.close();
  });

  async function upload(bytes: Buffer, filename: string, type: string) {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const response = await server.api('/api/v1/upload', { method: 'POST', body });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: Record<string, unknown> }).media;
  }

  it('lists the X account without credentials', async () => {
    const response = await server.api('/api/v1/accounts');
    const text = await response.text();
    assert.match(text, /"platform":"x"/);
    assert.doesNotMatch(text, /accessToken|refreshToken|clientSecret/);
  });

  it('validates with weighted counting: 280 passes, 281 fails', async () => {
    const check = async (message: string) => {
      const response = await server.api('/api/v1/validation', { json: { message, accountIds: ['x-main'] } });
      assert.equal(response.status, 200);
      return (await response.json()) as { valid: boolean; results: { errors: { code: string }[] }[] };
    };
    assert.equal((await check('😀'.repeat(140))).valid, true);
    const tooLong = await check(`${'日'.repeat(140)}a`);
    assert.equal(tooLong.valid, false);
    assert.equal(tooLong.results[0]!.errors[0]!.code, 'text_too_long');
  });

  it('publishes text with an image, and a video after processing', async () => {
    const image = await upload(samplePng(), 'p.png', 'image/png');
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'From the self-hosted server https://example.com',
        accountIds: ['x-main'],
        postingMode: 'now',
        media: [image],
        accountOptions: { 'x-main': { replySettings: 'mentionedUsers' } },
      },
    });
    const body = (await response.json()) as { status: string; results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.results[0]!.status, 'posted');
    const post = x.posts.find((p) => p.id === body.results[0]!.platformPostId)!;
    assert.equal(post.mediaIds.length, 1);
    assert.deepEqual(new Uint8Array(x.media.get(post.mediaIds[0]!)!.bytes!), new Uint8Array(samplePng()));
    assert.equal(body.results[0]!.url, `https://x.com/${x.user.username}/status/${post.id}`);

    const video = await upload(sampleMp4(), 'v.mp4', 'video/mp4');
    const second = await server.api('/api/v1/posts', {
      json: { message: 'A clip', accountIds: ['x-main'], postingMode: 'now', media: [video] },
    });
    assert.equal(second.status, 200, await second.clone().text());
    assert.ok(x.requestsTo('GET', /^\/2\/media\/upload$/).length >= 1, 'polled STATUS');
  });

  it('refreshes an expired token with the accounts-file client, and reports a duplicate as a permanent failure', async () => {
    const first = await server.api('/api/v1/posts', {
      json: { message: 'Refreshed first', accountIds: ['x-stale'], postingMode: 'now' },
    });
    assert.equal(first.status, 200, await first.clone().text());
    assert.equal(x.requestsTo('POST', /^\/2\/oauth2\/token$/).length, 1);

    const duplicate = await server.api('/api/v1/posts', {
      json: { message: 'Refreshed first', accountIds: ['x-main'], postingMode: 'now' },
    });
    const body = (await duplicate.json()) as {
      code: string;
      results: { error: { code: string; message: string; retryable: boolean } }[];
    };
    assert.equal(duplicate.status, 502);
    assert.equal(body.results[0]!.error.code, 'duplicate_content');
    assert.equal(body.results[0]!.error.retryable, false);
    assert.match(body.results[0]!.error.message, /duplicate/);
  });
});
