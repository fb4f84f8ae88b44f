import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeTumblr, samplePng, startFakeTumblr } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: Tumblr', () => {
  let tumblr: FakeTumblr;
  let server: TestServer;
  let stale: Record<string, unknown>;
  before(async () => {
    tumblr = await startFakeTumblr();
    // An access token about to expire: the server refreshes it with TUMBLR_CLIENT_ID / _SECRET.
    stale = tumblr.credentials({ expiresInSeconds: 1 });
    server = await startTestServer({
      env: tumblr.env(),
      accounts: [{ id: 'tb', platform: 'tumblr', platformAccountId: 'alice-art', credentials: stale }],
    });
  });
  after(async () => {
    await server.close();
    await tumblr.close();
  });

  it('validates paragraphs against 4096, then posts NPF with an uploaded image part, tags and state', async () => {
    const codes = async (json: object) => {
      const answer = await server.api('/api/v1/validation', { json });
      const outcome = (await answer.json()) as { results: { errors: { code: string }[] }[] };
      return outcome.results[0]!.errors.map((e) => e.code);
    };
    assert.deepEqual(await codes({ message: `ok\n\n${'a'.repeat(4097)}`, accountIds: ['tb'] }), [
      'text_too_long',
    ]);
    assert.deepEqual(
      await codes({ message: 'x', accountIds: ['tb'], accountOptions: { tb: { state: 'soon' } } }),
      ['invalid_option'],
    );
    assert.deepEqual(
      await codes({ message: `${'a'.repeat(4096)}\n\n${'b'.repeat(4096)}`, accountIds: ['tb'] }),
      [],
    );

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'dot.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: object;
    };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'From the self-hosted server\n\nSecond paragraph',
        accountIds: ['tb'],
        postingMode: 'now',
        media: [{ ...media, altText: 'A dot' }],
        accountOptions: { tb: { tags: 'art, dots', state: 'published' } },
      },
    });
    const result = (await response.json()) as { results: { platformPostId: string; url: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    const post = tumblr.posts.at(-1)!;
    assert.equal(post.blog, 'alice-art');
    assert.equal(post.encoding, 'multipart');
    assert.deepEqual(
      post.content.map((b) => b.text ?? b.alt_text),
      ['From the self-hosted server', 'Second paragraph', 'A dot'],
    );
    assert.deepEqual(post.tags, ['art', 'dots']);
    assert.equal(post.media[0]!.type, 'image/png');
    assert.equal(result.results[0]!.url, `https://www.tumblr.com/alice-art/${post.id}`);
    assert.equal(tumblr.refreshes, 1, 'the stale token was refreshed first');
  });

  it('a draft has no public URL', async () => {
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Draft',
        accountIds: ['tb'],
        postingMode: 'now',
        accountOptions: { tb: { state: 'draft' } },
      },
    });
    const result = (await response.json()) as { results: { platformPostId: string; url?: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    assert.equal(tumblr.posts.at(-1)!.state, 'draft');
    assert.equal(result.results[0]!.url, undefined);
  });
});
