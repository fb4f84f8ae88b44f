import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeWordPress, samplePng, startFakeWordPress } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server publishing to a WordPress site (the fake) from its accounts file, over HTTP. */
describe('self-hosted: WordPress', () => {
  let wordpress: FakeWordPress;
  let server: TestServer;
  before(async () => {
    wordpress = await startFakeWordPress({
      path: '/blog',
      users: [{ username: 'alice', role: 'editor', applicationPasswords: ['abcd efgh ijkl mnop qrst uvwx'] }],
    });
    server = await startTestServer({
      accounts: [
        {
          id: 'blog',
          platform: 'wordpress',
          platformAccountId: wordpress.url,
          credentials: wordpress.credentials('alice', 'abcd efgh ijkl mnop qrst uvwx'),
          options: { categories: ['News'] },
        },
        {
          id: 'blog-wrong',
          platform: 'wordpress',
          platformAccountId: wordpress.url,
          credentials: wordpress.credentials('alice', 'not the password'),
        },
      ],
    });
  });
  after(async () => {
    await server?.close();
    await wordpress?.close();
  });

  async function upload(): Promise<Record<string, unknown>> {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'cover.png');
    const response = await server.api('/api/v1/upload', { method: 'POST', body });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: Record<string, unknown> }).media;
  }

  it('validates the title and the media before anything is sent', async () => {
    const response = await server.api('/api/v1/validation', {
      json: { message: '   \n', accountIds: ['blog'], accountOptions: { blog: { status: 'scheduled' } } },
    });
    const body = (await response.json()) as {
      valid: boolean;
      results: { errors: { code: string; path?: string }[] }[];
    };
    assert.equal(response.status, 200);
    assert.equal(body.valid, false);
    assert.deepEqual(
      body.results[0]!.errors.map((e) => e.code),
      ['invalid_option'],
    );
    const untitled = await server.api('/api/v1/posts', {
      json: { message: '\n', accountIds: ['blog'], postingMode: 'now' },
    });
    assert.equal(untitled.status, 422);
    assert.equal(wordpress.posts.length, 0);
  });

  it('publishes a post with its featured image, the account option and the per-post options', async () => {
    const media = await upload();
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Release notes\n\nVersion **2** is out.',
        accountIds: ['blog'],
        postingMode: 'now',
        media: [{ ...media, altText: 'The cover' }],
        accountOptions: { blog: { tags: 'release, v2', excerpt: 'Version 2' } },
      },
    });
    const body = (await response.json()) as { status: string; results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const post = wordpress.posts.at(-1)!;
    assert.equal(body.results[0]!.platformPostId, String(post.id));
    assert.equal(body.results[0]!.url, `${wordpress.url}/release-notes/`);
    assert.equal(post.title, 'Release notes');
    assert.equal(post.content, '<p>Version <strong>2</strong> is out.</p>\n');
    assert.equal(post.excerpt, 'Version 2');
    assert.deepEqual(
      post.categories.map((id) => wordpress.terms.find((t) => t.id === id)?.name),
      ['News'],
    );
    assert.deepEqual(
      post.tags.map((id) => wordpress.terms.find((t) => t.id === id)?.name),
      ['release', 'v2'],
    );
    assert.equal(wordpress.media[0]!.altText, 'The cover');
    assert.equal(post.featuredMedia, wordpress.media[0]!.id);
  });

  it('a refused application password fails permanently, without leaking it', async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Nope\nx', accountIds: ['blog-wrong'], postingMode: 'now' },
    });
    const text = await response.text();
    assert.equal(response.status, 502);
    const body = JSON.parse(text) as {
      results: { error: { code: string; retryable: boolean; hint: string } }[];
    };
    assert.deepEqual(body.results[0]!.error.code, 'credentials_invalid');
    assert.equal(body.results[0]!.error.retryable, false);
    assert.match(body.results[0]!.error.hint, /reconnect the account/);
    assert.ok(!text.includes('not the password'));
  });
});
