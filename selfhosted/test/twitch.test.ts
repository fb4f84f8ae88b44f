import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeTwitch, startFakeTwitch } from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

describe('self-hosted: Twitch', () => {
  let twitch: FakeTwitch;
  let server: TestServer;
  before(async () => {
    twitch = await startFakeTwitch();
    server = await startTestServer({
      env: twitch.env(),
      accounts: [
        {
          id: 'tw',
          platform: 'twitch',
          platformAccountId: twitch.user.id,
          // Expiring: refreshed first with TWITCH_CLIENT_SECRET.
          credentials: twitch.credentials({ expiresInSeconds: 5, withSecret: false }),
        },
      ],
    });
  });
  after(async () => {
    await server.close();
    await twitch.close();
  });

  it('refuses media and long text, then sends a chat message as the broadcaster', async () => {
    const answer = await server.api('/api/v1/validation', {
      json: { message: 'x'.repeat(501), accountIds: ['tw'] },
    });
    const outcome = (await answer.json()) as { results: { errors: { code: string }[] }[] };
    assert.deepEqual(
      outcome.results[0]!.errors.map((e) => e.code),
      ['text_too_long'],
    );
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Live now!', accountIds: ['tw'], postingMode: 'now' },
    });
    const result = (await response.json()) as { results: { platformPostId: string }[] };
    assert.equal(response.status, 200, JSON.stringify(result));
    assert.equal(twitch.messages.at(-1)!.text, 'Live now!');
    assert.equal(result.results[0]!.platformPostId, twitch.messages.at(-1)!.id);
    assert.equal(twitch.refreshes, 1);
  });

  it('a dropped message fails with Twitch’s reason', async () => {
    twitch.dropNext = {
      code: 'msg_duplicate',
      message: 'Your message was not sent because it is identical to the previous one.',
    };
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Live now!', accountIds: ['tw'], postingMode: 'now' },
    });
    const result = (await response.json()) as { results: { error: { code: string; message: string } }[] };
    assert.equal(result.results[0]!.error.code, 'content_rejected', JSON.stringify(result));
    assert.match(result.results[0]!.error.message, /msg_duplicate/);
  });
});
