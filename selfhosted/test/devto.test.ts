import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeDevto, startFakeDevto } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';
import { publishNow, refusedPost, uploadSamplePng } from './long-form.ts';

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
    const tags = await refusedPost(server, 'dev', 'Title', { tags: ['a', 'b', 'c', 'd', 'e'] });
    assert.deepEqual(
      tags.map((e) => [e.code, e.path]),
      [['invalid_option', 'accountOptions.dev.tags']],
    );
    const title = await refusedPost(server, 'dev', 'x'.repeat(129), {});
    assert.deepEqual(
      title.map((e) => e.code),
      ['title_too_long'],
    );
    assert.equal(devto.articles.length, 0);
  });

  it('publishes an article whose cover is the public media URL', async () => {
    const media = await uploadSamplePng(server, 'cover.png');
    const result = await publishNow(server, 'dev', {
      message: 'Hello DEV\n\nFirst post from Postwave.',
      media: [media],
      options: { tags: 'postwave, #Automation' },
    });
    const article = devto.articles[0]!;
    assert.deepEqual(
      [article.title, article.bodyMarkdown, article.tags, article.published],
      ['Hello DEV', 'First post from Postwave.', ['postwave', 'automation'], true],
    );
    assert.equal(article.mainImage, media.url);
    assert.match(media.url, /^https:\/\/media\.example\.org\/media\//);
    assert.equal(result.platformPostId, String(article.id));
  });
});
