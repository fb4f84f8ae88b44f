import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeTeams, startFakeTeams } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Microsoft Teams through the self-hosted server: a card per post, images by the public media URL. */
describe('self-hosted: Microsoft Teams', () => {
  let teams: FakeTeams;
  let server: TestServer;
  before(async () => {
    teams = await startFakeTeams();
    server = await startTestServer({
      accounts: [
        {
          id: 'teams-general',
          platform: 'teams',
          platformAccountId: 'Marketing › General',
          credentials: { webhookUrl: teams.webhookUrl() },
          options: { title: 'Postwave' },
        },
      ],
      env: { SERVICE_PUBLIC_URL: 'https://media.postwave.example' },
    });
  });
  after(async () => {
    await server?.close();
    await teams?.close();
  });

  it('refuses a card over 28 KB before sending anything', async () => {
    const big = await validation(server, { message: 'a'.repeat(29_000), accountIds: ['teams-general'] });
    assert.deepEqual(big.errors, ['text_too_long']);
    const refused = await server.api('/api/v1/posts', {
      json: { message: 'a'.repeat(29_000), accountIds: ['teams-general'], postingMode: 'now' },
    });
    assert.equal(refused.status, 422);
    assert.equal(teams.invocations().length, 0);
  });

  it('posts an Adaptive Card with the text and the image by its public URL', async () => {
    const media = [await uploadPng(server)];
    const posted = await publishNow(server, { message: 'Launch day', accountIds: ['teams-general'], media });
    assert.equal(posted.status, 200, posted.raw);
    const card = teams.messages[0]!.card;
    assert.deepEqual(card.body, [
      { type: 'TextBlock', text: 'Postwave', size: 'Medium', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text: 'Launch day', wrap: true },
      { type: 'Image', url: `https://media.postwave.example/media/${media[0]!.key}`, size: 'Stretch' },
    ]);
    assert.equal(posted.results[0]!.platformPostId, teams.runs[0]!.runId);
    assert.ok(!posted.raw.includes(teams.workflow.sig), 'the webhook secret never reaches a response');
    assert.ok(!server.logs.join('\n').includes(teams.workflow.sig), 'nor a log line');
  });
});
