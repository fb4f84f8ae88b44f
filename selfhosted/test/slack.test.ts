import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeSlack, startFakeSlack } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Slack through the self-hosted server: accounts file → upload → validation → POST /api/v1/posts. */
describe('self-hosted: Slack', () => {
  let slack: FakeSlack;
  let server: TestServer;
  before(async () => {
    slack = await startFakeSlack();
    server = await startTestServer({
      accounts: [
        {
          id: 'sl-general',
          platform: 'slack',
          platformAccountId: 'C0GENERAL1',
          credentials: slack.credentials(),
        },
        {
          id: 'sl-mrkdwn',
          platform: 'slack',
          platformAccountId: 'C0GENERAL1',
          credentials: slack.credentials(),
          options: { mrkdwn: true },
        },
        {
          id: 'sl-random',
          platform: 'slack',
          platformAccountId: 'C0RANDOM01',
          credentials: slack.credentials(),
        },
      ],
      env: { SLACK_API_URL: `${slack.url}/api` },
    });
  });
  after(async () => {
    await server?.close();
    await slack?.close();
  });

  it('validates 40,000 characters as sent: escaped entities count unless mrkdwn is on', async () => {
    assert.equal(
      (await validation(server, { message: 'a'.repeat(40_000), accountIds: ['sl-general'] })).valid,
      true,
    );
    const amps = { message: '&'.repeat(9_000), accountIds: ['sl-general'] };
    assert.deepEqual((await validation(server, amps)).errors, ['text_too_long']);
    assert.equal((await validation(server, { ...amps, accountIds: ['sl-mrkdwn'] })).valid, true);
  });

  it('posts escaped text, then a file with the text as its comment, and a thread in the thread', async () => {
    const text = await publishNow(server, { message: 'Deploy <prod> & done', accountIds: ['sl-general'] });
    assert.equal(text.status, 200, text.raw);
    assert.equal(slack.messages.at(-1)?.text, 'Deploy &lt;prod&gt; &amp; done');
    assert.equal(text.results[0]!.platformPostId, slack.messages.at(-1)?.ts);
    assert.match(text.results[0]!.url ?? '', /slack\.com\/archives\/C0GENERAL1\/p/);

    const media = [await uploadPng(server)];
    const withFile = await publishNow(server, { message: 'The chart', accountIds: ['sl-general'], media });
    assert.equal(withFile.status, 200, withFile.raw);
    const shared = slack.messages.at(-1)!;
    assert.equal(shared.text, 'The chart');
    assert.deepEqual(
      shared.files.map((f) => f.filename),
      ['chart.png'],
    );

    const thread = await publishNow(server, {
      message: '*One*',
      accountIds: ['sl-mrkdwn'],
      thread: [{ message: 'Two' }, { message: 'Three' }],
    });
    assert.equal(thread.status, 200, thread.raw);
    const root = thread.results[0]!.platformPostId;
    assert.deepEqual(
      slack.messages.slice(-3).map((m) => [m.text, m.threadTs]),
      [
        ['*One*', undefined],
        ['Two', root],
        ['Three', root],
      ],
    );
  });

  it('a channel the app is not in fails for good, saying what to do', async () => {
    const failed = await publishNow(server, { message: 'x', accountIds: ['sl-random'] });
    assert.equal(failed.status, 502, failed.raw);
    assert.equal(failed.results[0]!.error?.code, 'target_unreachable');
    assert.equal(failed.results[0]!.error?.retryable, false);
    assert.match(failed.results[0]!.error!.message, /invite/);
    assert.doesNotMatch(failed.raw, /xoxb-/);
  });
});
