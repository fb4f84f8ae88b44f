import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakePixelfed, samplePng, startFakePixelfed } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: Pixelfed', () => {
  let pixelfed: FakePixelfed;
  let server: TestServer;
  before(async () => {
    pixelfed = await startFakePixelfed({ tokens: { 'px-token': { id: '5', username: 'pat' } } });
    server = await startTestServer({
      accounts: [
        {
          id: 'px',
          platform: 'pixelfed',
          platformAccountId: '5',
          credentials: pixelfed.credentials('px-token'),
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    await pixelfed.close();
  });

  it('refuses a post without media, then publishes a photo', async () => {
    const bare = await server.api('/api/v1/posts', {
      json: { message: 'No photo', accountIds: ['px'], postingMode: 'now' },
    });
    const refused = (await bare.json()) as { errors: { code: string }[] };
    assert.equal(bare.status, 422);
    assert.ok(
      refused.errors.some((e) => e.code === 'media_required'),
      JSON.stringify(refused),
    );

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'p.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: object;
    };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'A photo https://example.com/long/link',
        accountIds: ['px'],
        postingMode: 'now',
        media: [media],
      },
    });
    const result = (await response.json()) as { results: { platformPostId: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    const status = pixelfed.statuses.at(-1)!;
    assert.equal(status.caption, 'A photo https://example.com/long/link');
    assert.equal(result.results[0]!.platformPostId, status.id);
    assert.equal(pixelfed.calls('/api/v1/statuses')[0]!.headers['idempotency-key'], undefined);
  });
});
