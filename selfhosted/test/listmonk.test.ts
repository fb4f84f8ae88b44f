import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeListmonk, startFakeListmonk } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';
import { publishNow, refusedPost, uploadSamplePng } from './long-form.ts';

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
    assert.deepEqual(
      (await refusedPost(server, 'news', 'x', { subject: 'y'.repeat(2001) })).map((e) => [e.code, e.path]),
      [['title_too_long', 'accountOptions.news.subject']],
    );
    assert.deepEqual(
      (await refusedPost(server, 'news', 'x', { drafts: true })).map((e) => e.code),
      ['invalid_option'],
    );
    assert.equal(listmonk.server.requests.length, 0);
  });

  it('uploads the image, creates the campaign to the list and starts it', async () => {
    const media = await uploadSamplePng(server, 'header.png');
    const result = await publishNow(server, 'news', {
      message: 'March news\n\nWhat happened this month.',
      media: [media],
    });
    const campaign = listmonk.campaigns[0]!;
    assert.deepEqual(
      [campaign.subject, campaign.lists.map((l) => l.id), campaign.contentType, campaign.status],
      ['March news', [3], 'markdown', 'running'],
    );
    assert.equal(campaign.body, `![](<${listmonk.media[0]!.url}>)\n\nWhat happened this month.`);
    assert.equal(result.platformPostId, String(campaign.id));
  });
});
