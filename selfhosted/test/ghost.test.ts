import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeGhost, startFakeGhost } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';
import { publishNow, uploadSamplePng } from './long-form.ts';

/** The self-hosted server publishing to a Ghost site (the fake) from its accounts file, over HTTP. */
describe('self-hosted: Ghost', () => {
  let ghost: FakeGhost;
  let server: TestServer;
  let key: string;
  before(async () => {
    ghost = await startFakeGhost({ title: 'Notes' });
    key = ghost.addKey();
    server = await startTestServer({
      accounts: [
        { id: 'notes', platform: 'ghost', platformAccountId: ghost.url, credentials: ghost.credentials(key) },
      ],
    });
  });
  after(async () => {
    await server?.close();
    await ghost?.close();
  });

  it('validates the title length as Ghost counts it', async () => {
    const response = await server.api('/api/v1/validation', {
      json: { message: 'x'.repeat(256), accountIds: ['notes'] },
    });
    const body = (await response.json()) as { valid: boolean; results: { errors: { code: string }[] }[] };
    assert.equal(body.valid, false);
    assert.equal(body.results[0]!.errors[0]!.code, 'title_too_long');
  });

  it('publishes a post with its feature image and tags, status published', async () => {
    const media = await uploadSamplePng(server, 'cover.png');
    const result = await publishNow(server, 'notes', {
      message: 'Weekly notes\n\n- one\n- two',
      media: [media],
      options: { tags: ['Weekly'] },
    });
    const post = ghost.posts[0]!;
    assert.deepEqual(
      { title: post.title, status: post.status, tags: post.tags, html: post.html },
      {
        title: 'Weekly notes',
        status: 'published',
        tags: ['Weekly'],
        html: '<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
      },
    );
    assert.equal(post.featureImage, ghost.images[0]!.url);
    assert.equal(result.url, `${ghost.url}/weekly-notes/`);
  });
});
