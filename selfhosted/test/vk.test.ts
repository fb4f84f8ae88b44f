import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeVk, samplePng, startFakeVk } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: VK', () => {
  let vk: FakeVk;
  let server: TestServer;
  before(async () => {
    vk = await startFakeVk();
    server = await startTestServer({
      env: vk.env(),
      accounts: [
        { id: 'club', platform: 'vk', platformAccountId: '-77', credentials: { accessToken: 'vk1.a.alice' } },
        {
          id: 'gone',
          platform: 'vk',
          platformAccountId: '1001',
          credentials: { accessToken: 'vk1.a.revoked' },
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    await vk.close();
  });

  it('posts to a community wall with a photo through the wall upload server', async () => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'dot.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: object;
    };
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Новости клуба', accountIds: ['club'], postingMode: 'now', media: [media] },
    });
    const result = (await response.json()) as { results: { platformPostId: string; url: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    const post = vk.posts.at(-1)!;
    assert.deepEqual([post.ownerId, post.fromGroup, post.message], [-77, true, 'Новости клуба']);
    assert.equal(post.attachments.length, 1);
    assert.equal(result.results[0]!.url, `https://vk.com/wall-77_${post.id}`);
  });

  it('a refused token (error 5) fails as needs_reconnect', async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'x', accountIds: ['gone'], postingMode: 'now' },
    });
    const result = (await response.json()) as { results: { status: string; error: { code: string } }[] };
    assert.equal(result.results[0]!.error.code, 'needs_reconnect', JSON.stringify(result));
  });
});
