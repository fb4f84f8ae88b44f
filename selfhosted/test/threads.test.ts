import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type FakeThreads,
  sampleJpeg,
  sampleMp4,
  samplePng,
  startFakeThreads,
} from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** A free loopback port, so the server's public media URL can point at itself before it starts. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The self-hosted server publishing to Threads through real HTTP; the fake downloads media from the server's /media URLs. */
describe('self-hosted: Threads', () => {
  let threads: FakeThreads;
  let server: TestServer;
  before(async () => {
    threads = await startFakeThreads();
    const port = await freePort();
    server = await startTestServer({
      accounts: [
        {
          id: 'th-main',
          platform: 'threads',
          platformAccountId: threads.user.id,
          username: threads.user.username,
          credentials: threads.credentials(),
        },
      ],
      env: {
        THREADS_API_URL: threads.url,
        PORT: String(port),
        SERVICE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    });
  });
  after(async () => {
    await server.close();
    await threads.close();
  });

  async function upload(bytes: Buffer, filename: string, type: string) {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
    const response = await server.api('/api/v1/upload', { method: 'POST', body });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: Record<string, unknown> }).media;
  }

  it('validates 500 characters and warns that loopback media URLs are not public', async () => {
    const image = await upload(samplePng(), 'p.png', 'image/png');
    const ok = await server.api('/api/v1/validation', {
      json: { message: 'a'.repeat(500), accountIds: ['th-main'], media: [image] },
    });
    const body = (await ok.json()) as { valid: boolean; results: { warnings: { code: string }[] }[] };
    assert.equal(body.valid, true);
    assert.deepEqual(
      body.results[0]!.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    const tooLong = await server.api('/api/v1/validation', {
      json: { message: 'a'.repeat(501), accountIds: ['th-main'] },
    });
    assert.equal(((await tooLong.json()) as { valid: boolean }).valid, false);
  });

  it('publishes text', async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Hello from self-hosted', accountIds: ['th-main'], postingMode: 'now' },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const post = threads.posts.find((p) => p.id === body.results[0]!.platformPostId)!;
    assert.equal(post.text, 'Hello from self-hosted');
    assert.equal(body.results[0]!.url, post.permalink);
  });

  it('publishes a carousel whose media Threads downloads from the server', async () => {
    const media = [
      await upload(samplePng(), 'one.png', 'image/png'),
      await upload(sampleJpeg(), 'two.jpg', 'image/jpeg'),
      await upload(sampleMp4(), 'three.mp4', 'video/mp4'),
    ];
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Carousel',
        accountIds: ['th-main'],
        postingMode: 'now',
        media,
        accountOptions: { 'th-main': { replyControl: 'mentioned_only' } },
      },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const post = threads.posts.find((p) => p.id === body.results[0]!.platformPostId)!;
    const items = post.children.map((id) => threads.containers.get(id)!);
    assert.deepEqual(
      items.map((c) => c.downloaded?.bytes.length),
      [samplePng().length, sampleJpeg().length, sampleMp4().length],
    );
  });

  it('fails with a clear, permanent error when the daily quota is spent', async () => {
    threads.extraQuotaUsage = threads.quotaTotal;
    try {
      const response = await server.api('/api/v1/posts', {
        json: { message: 'One too many', accountIds: ['th-main'], postingMode: 'now' },
      });
      const body = (await response.json()) as {
        results: { error: { code: string; message: string; retryable: boolean } }[];
      };
      assert.equal(response.status, 502);
      assert.equal(body.results[0]!.error.code, 'rate_limited');
      assert.equal(body.results[0]!.error.retryable, false);
      assert.match(body.results[0]!.error.message, /publishing limit/);
    } finally {
      threads.extraQuotaUsage = 0;
    }
  });
});
