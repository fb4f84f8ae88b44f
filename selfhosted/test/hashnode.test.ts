import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeHashnode, startFakeHashnode } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';
import { publishNow, refusedPost, uploadSamplePng } from './long-form.ts';

const publication = {
  id: '65f0aaaaaaaaaaaaaaaaaaa1',
  title: 'Alice writes',
  url: 'https://alice.hashnode.dev',
};

/** The self-hosted server publishing to Hashnode (the fake, at HASHNODE_API_URL) from its accounts file. */
describe('self-hosted: Hashnode', () => {
  let hashnode: FakeHashnode;
  let server: TestServer;
  before(async () => {
    hashnode = await startFakeHashnode({ 'hn-token': { username: 'alice', publications: [publication] } });
    server = await startTestServer({
      accounts: [
        {
          id: 'hn',
          platform: 'hashnode',
          platformAccountId: publication.id,
          credentials: { personalAccessToken: 'hn-token' },
        },
      ],
      env: { ...hashnode.env(), SERVICE_PUBLIC_URL: 'https://media.example.org' },
    });
  });
  after(async () => {
    await server?.close();
    await hashnode?.close();
  });

  it('refuses six tags and a long title before anything is sent', async () => {
    const tags = await refusedPost(server, 'hn', 'Title', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
    assert.deepEqual(
      tags.map((e) => [e.code, e.path]),
      [['invalid_option', 'accountOptions.hn.tags']],
    );
    const title = await refusedPost(server, 'hn', 'x'.repeat(251), {});
    assert.deepEqual(
      title.map((e) => e.code),
      ['title_too_long'],
    );
    assert.equal(hashnode.server.requests.length, 0);
  });

  it('publishes a post whose cover is the public media URL', async () => {
    const media = await uploadSamplePng(server, 'cover.png');
    const result = await publishNow(server, 'hn', {
      message: 'Hello Hashnode\n\nFirst post from Postwave.',
      media: [media],
      options: { tags: 'Postwave, Open Source', canonicalUrl: 'https://blog.example/hello' },
    });
    const post = hashnode.posts[0]!;
    assert.deepEqual(
      [post.kind, post.title, post.contentMarkdown, post.originalArticleURL],
      ['post', 'Hello Hashnode', 'First post from Postwave.', 'https://blog.example/hello'],
    );
    assert.deepEqual(
      post.tags.map((t) => t.slug),
      ['postwave', 'open-source'],
    );
    assert.equal(post.coverImageURL, media.url);
    assert.match(media.url, /^https:\/\/media\.example\.org\/media\//);
    assert.equal(result.platformPostId, post.id);
  });
});
