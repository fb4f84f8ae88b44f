import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeMedium, startFakeMedium } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';
import { publishNow, refusedPost, uploadSamplePng } from './long-form.ts';

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
    const tags = await refusedPost(server, 'med', 'Title', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    assert.deepEqual(
      tags.map((e) => [e.code, e.path]),
      [['invalid_option', 'accountOptions.med.tags']],
    );
    const title = await refusedPost(server, 'med', 'x'.repeat(101), {});
    assert.deepEqual(
      title.map((e) => e.code),
      ['title_too_long'],
    );
    assert.equal(medium.server.requests.length, 0);
  });

  it('uploads the image to Medium, then publishes a draft story with it', async () => {
    const media = await uploadSamplePng(server, 'cover.png');
    const result = await publishNow(server, 'med', {
      message: 'Hello Medium\n\nFirst story from Postwave.',
      media: [media],
      options: { tags: 'postwave, automation', publishStatus: 'draft' },
    });
    const story = medium.posts[0]!;
    assert.deepEqual(
      [story.title, story.tags, story.publishStatus, story.contentFormat],
      ['Hello Medium', ['postwave', 'automation'], 'draft', 'markdown'],
    );
    assert.equal(
      story.content,
      `# Hello Medium\n\n![](<${medium.images[0]!.url}>)\n\nFirst story from Postwave.`,
    );
    assert.equal(result.platformPostId, story.id);
    assert.equal(result.url, story.url);
  });
});
