import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeDevto, samplePng, startFakeDevto } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server publishing to Dev.to (the fake, at DEVTO_API_URL) from its accounts file. */
describe('self-hosted: Dev.to', () => {
  let devto: FakeDevto;
  let server: TestServer;
  before(async () => {
    devto = await startFakeDevto({ keys: { 'dev-key': { username: 'alice' } } });
    server = await startTestServer({
      accounts: [
        { id: 'dev', platform: 'devto', platformAccountId: 'alice', credentials: { apiKey: 'dev-key' } },
      ],
      env: { ...devto.env(), SERVICE_PUBLIC_URL: 'https://media.example.org' },
    });
  });
  after(async () => {
    await server?.close();
    await devto?.close();
  });

  it('refuses five tags, and a long title, before anything is sent', async () => {
    const post = async (message: string, options: Record<string, unknown>) => {
      const response = await server.api('/api/v1/posts', {
        json: { message, accountIds: ['dev'], postingMode: 'now', accountOptions: { dev: options } },
      });
      assert.equal(response.status, 422);
      return ((await response.json()) as { errors: { code: string; path?: string }[] }).errors;
    };
    const tags = await post('Title', { tags: ['a', 'b', 'c', 'd', 'e'] });
    assert.deepEqual(
      tags.map((e) => [e.code, e.path]),
      [['invalid_option', 'accountOptions.dev.tags']],
    );
    const title = await post('x'.repeat(129), {});
    assert.deepEqual(
      title.map((e) => e.code),
      ['title_too_long'],
    );
    assert.equal(devto.articles.length, 0);
  });

  it('publishes an article whose cover is the public media URL', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'cover.png');
    const uploaded = await server.api('/api/v1/upload', { method: 'POST', body: form });
    const { media } = (await uploaded.json()) as { media: { url: string } };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Hello DEV\n\nFirst post from Postwave.',
        accountIds: ['dev'],
        postingMode: 'now',
        media: [media],
        accountOptions: { dev: { tags: 'postwave, #Automation' } },
      },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const article = devto.articles[0]!;
    assert.deepEqual(
      [article.title, article.bodyMarkdown, article.tags, article.published],
      ['Hello DEV', 'First post from Postwave.', ['postwave', 'automation'], true],
    );
    assert.equal(article.mainImage, media.url);
    assert.match(media.url, /^https:\/\/media\.example\.org\/media\//);
    assert.equal(body.results[0]!.platformPostId, String(article.id));
  });
});
