import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeListmonk, samplePng, startFakeListmonk } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

/** The self-hosted server sending Listmonk campaigns (the fake, at the account's baseUrl) from its accounts file. */
describe('self-hosted: Listmonk', () => {
  let listmonk: FakeListmonk;
  let server: TestServer;
  before(async () => {
    listmonk = await startFakeListmonk({ users: { postwave: 'tok-123' } });
    server = await startTestServer({
      accounts: [
        {
          id: 'news',
          platform: 'listmonk',
          platformAccountId: '3',
          credentials: listmonk.credentials('postwave'),
        },
      ],
    });
  });
  after(async () => {
    await server?.close();
    await listmonk?.close();
  });

  it('refuses a subject over 2000 characters and a misspelt option before anything is sent', async () => {
    const post = async (message: string, options: Record<string, unknown>) => {
      const response = await server.api('/api/v1/posts', {
        json: { message, accountIds: ['news'], postingMode: 'now', accountOptions: { news: options } },
      });
      assert.equal(response.status, 422);
      return ((await response.json()) as { errors: { code: string; path?: string }[] }).errors;
    };
    assert.deepEqual(
      (await post('x', { subject: 'y'.repeat(2001) })).map((e) => [e.code, e.path]),
      [['title_too_long', 'accountOptions.news.subject']],
    );
    assert.deepEqual(
      (await post('x', { drafts: true })).map((e) => e.code),
      ['invalid_option'],
    );
    assert.equal(listmonk.server.requests.length, 0);
  });

  it('uploads the image, creates the campaign to the list and starts it', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'header.png');
    const uploaded = await server.api('/api/v1/upload', { method: 'POST', body: form });
    const { media } = (await uploaded.json()) as { media: { url: string } };
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'March news\n\nWhat happened this month.',
        accountIds: ['news'],
        postingMode: 'now',
        media: [media],
      },
    });
    const body = (await response.json()) as { results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    const campaign = listmonk.campaigns[0]!;
    assert.deepEqual(
      [campaign.subject, campaign.lists.map((l) => l.id), campaign.contentType, campaign.status],
      ['March news', [3], 'markdown', 'running'],
    );
    assert.equal(campaign.body, `![](<${listmonk.media[0]!.url}>)\n\nWhat happened this month.`);
    assert.equal(body.results[0]!.platformPostId, String(campaign.id));
  });
});
