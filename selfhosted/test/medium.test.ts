import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeMedium, samplePng, startFakeMedium } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server publishing to Medium (the fake, at MEDIUM_API_URL) from its accounts file. */
describe('self-hosted: Medium', () => {
  let medium: FakeMedium;
  let server: TestServer;
  before(async () => {
    medium = await startFakeMedium({ 'med-token': { username: 'alice' } });
    server = await startTestServer({
      accounts: [
        {
          id: 'med',
          platform: 'medium',
          platformAccountId: medium.userId('med-token'),
          credentials: { integrationToken: 'med-token' },
        },
      ],
      env: medium.env(),
    });
  });
  after(async () => {
    await server?.close();
    await medium?.close();
  });

  it('refuses six tags and a long title before anything is sent', async () => {
    const post = async (message: string, options: Record<string, unknown>) => {
      const response = await server.api('/api/v1/posts', {
        json: { message, accountIds: ['med'], postingMode: 'now', accountOptions: { med: options } },
      });
      assert.equal(response.status, 422);
      return ((await response.json()) as { errors: { code: string; path?: string }[] }).errors;
    };
    const tags = await post('Title', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    assert.deepEqual(
      tags.map((e) => [e.code, e.path]),
      [['invalid_option', 'accountOptions.med.tags']],
    );
    const title = await post('x'.repeat(101), {});
    assert.deepEqual(
      title.map((e) => e.code),
      ['title_too_long'],
    );
    assert.equal(medium.server.requests.length, 0);
  });

  it('uploads the image to Medium, then publishes a draft story with it', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'cover.png');
    const uploaded = await server.api('/api/v1/upload', { method: 'POST', body: form });
    const { media } = (await uploaded.json()) as { media: { url: string } };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Hello Medium\n\nFirst story from Postwave.',
        accountIds: ['med'],
        postingMode: 'now',
        media: [media],
        accountOptions: { med: { tags: 'postwave, automation', publishStatus: 'draft' } },
      },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const story = medium.posts[0]!;
    assert.deepEqual(
      [story.title, story.tags, story.publishStatus, story.contentFormat],
      ['Hello Medium', ['postwave', 'automation'], 'draft', 'markdown'],
    );
    assert.equal(
      story.content,
      `# Hello Medium\n\n![](<${medium.images[0]!.url}>)\n\nFirst story from Postwave.`,
    );
    assert.equal(body.results[0]!.platformPostId, story.id);
    assert.equal(body.results[0]!.url, story.url);
  });
});
