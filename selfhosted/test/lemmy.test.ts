import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeLemmy, samplePng, startFakeLemmy } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: Lemmy', () => {
  let lemmy: FakeLemmy;
  let server: TestServer;
  before(async () => {
    lemmy = await startFakeLemmy({
      users: [{ username: 'lea', password: 'pw-lea' }],
      communities: [{ id: 3, name: 'selfhosted', title: 'Self-hosting' }],
    });
    server = await startTestServer({
      accounts: [
        {
          id: 'lm',
          platform: 'lemmy',
          platformAccountId: `selfhosted@${lemmy.host}`,
          credentials: lemmy.credentials('lea', 'pw-lea'),
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    await lemmy.close();
  });

  it('validates the title and publishes an image post with a first comment', async () => {
    const short = await server.api('/api/v1/validation', { json: { message: 'Hi', accountIds: ['lm'] } });
    assert.equal(((await short.json()) as { valid: boolean }).valid, false);

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'shot.png');
    const { media } = (await (await server.api('/api/v1/upload', { method: 'POST', body })).json()) as {
      media: object;
    };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'My homelab\n\nRunning **everything** on one box.',
        accountIds: ['lm'],
        postingMode: 'now',
        media: [media],
        accountOptions: { lm: { firstComment: 'Ask me anything' } },
      },
    });
    const result = (await response.json()) as {
      results: { platformPostId: string; url: string; firstComment: { status: string } }[];
    };
    assert.equal(response.status, 200, JSON.stringify(result));
    const post = lemmy.posts.at(-1)!;
    assert.deepEqual([post.name, post.body], ['My homelab', 'Running **everything** on one box.']);
    assert.match(post.url ?? '', new RegExp(`^${lemmy.url}/pictrs/image/`));
    assert.equal(result.results[0]!.url, `${lemmy.url}/post/${post.id}`);
    assert.equal(result.results[0]!.firstComment.status, 'posted');
    assert.equal(lemmy.comments.at(-1)!.content, 'Ask me anything');
  });
});
