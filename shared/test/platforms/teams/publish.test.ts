import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchLike } from '../../../src/http/fetch-like.ts';
import { createSafeFetch } from '../../../src/http/safe-fetch.ts';
import { createTeamsPublisher } from '../../../src/platforms/teams/index.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { startFakeTeams } from '../../fakes/teams.ts';
import { useFixture } from '../../support/fixture.ts';
import { fastRetries, rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeTeams();
    const account: PlatformAccount = {
      id: 't1',
      platform: 'teams',
      platformAccountId: 'Marketing › General',
      credentials: { webhookUrl: fake.webhookUrl() },
    };
    return { fake, account, publisher: createTeamsPublisher() };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.messages.length = 0;
      f.fake.runs.length = 0;
      f.fake.server.requests.length = 0;
    },
  },
);
const context = () => testPublishContext('t1', {}, 10_000);

/** A fetch that records the URLs it was asked for, then sends them with global fetch. */
function recordingFetch(): { fetch: FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    },
  };
}

describe('Teams publishing', () => {
  it('posts one Adaptive Card through the webhook (the account host fetch); 202 is success', async () => {
    const { fetch, urls } = recordingFetch();
    const photo = {
      ...memoryMedia(patternBytes(10, 1), { filename: 'a.png', contentType: 'image/png' }),
      altText: 'A photo',
    };
    const result = await fx.publisher.publish(
      { message: 'Hello <team> & **friends**' },
      fx.account,
      [photo],
      { title: 'News' },
      { ...context(), accountHostFetch: fetch },
    );
    assert.deepEqual(urls, [fx.account.credentials.webhookUrl]);
    const [message] = fx.fake.messages;
    assert.equal(message?.channel, 'General');
    assert.deepEqual(message?.card.body, [
      { type: 'TextBlock', text: 'News', size: 'Medium', weight: 'Bolder', wrap: true },
      { type: 'TextBlock', text: 'Hello <team> & **friends**', wrap: true },
      { type: 'Image', url: photo.url, altText: 'A photo', size: 'Stretch' },
    ]);
    assert.equal(message?.card.version, '1.4');
    assert.equal(result.platformPostId, fx.fake.runs[0]!.runId, 'the workflow run id names the delivery');
    assert.equal(result.url, undefined);
  });

  it('posts through a legacy incoming webhook (200 "1"), and reads its refusal from the 200 body', async () => {
    const account = { ...fx.account, credentials: { webhookUrl: fx.fake.connectorUrl() } };
    const result = await fx.publisher.publish({ message: 'Connector' }, account, [], {}, context());
    assert.equal(fx.fake.messages[0]?.via, 'connector');
    assert.match(result.platformPostId, /^accepted-/);
    const refused = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(30_000) }, account, [], {}, context()),
    );
    assert.equal(refused.code, 'content_rejected');
    assert.match(refused.message, /413/);
  });

  it('classifies refusals without ever repeating the webhook URL', async () => {
    const workflow = fx.fake.workflow;
    const badSig = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, credentials: { webhookUrl: fx.fake.webhookUrl(workflow, 'wrong-sig') } },
        [],
        {},
        context(),
      ),
    );
    assert.equal(badSig.code, 'credentials_invalid');
    assert.match(badSig.message, /DirectApiInvalidAuthorizationSignature/);
    const gone = fx.fake.addWorkflow('Gone');
    const goneUrl = fx.fake.webhookUrl(gone);
    fx.fake.workflows.delete(gone.id);
    const deleted = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, credentials: { webhookUrl: goneUrl } },
        [],
        {},
        context(),
      ),
    );
    assert.equal(deleted.code, 'target_unreachable');
    fx.fake.server.inject({ status: 502, text: 'Bad Gateway' });
    const down = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(down.code, 'platform_unavailable');
    assert.equal(down.retryable, true);
    for (const error of [badSig, deleted, down]) {
      assert.doesNotMatch(error.message, /sig=|workflows\/|\/invoke/, error.message);
      assert.ok(!error.message.includes(workflow.sig));
    }
  });

  it('waits out 429 Retry-After; a retry posts once', async () => {
    fx.fake.rateLimitNext({ retryAfterSeconds: 3 });
    const limited = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryAfterMs, 3000);
    fx.fake.rateLimitNext({ retryAfterSeconds: 0 });
    await withRetry(
      () => fx.publisher.publish({ message: 'after' }, fx.account, [], {}, context()),
      fastRetries(),
    );
    assert.equal(fx.fake.messages.length, 1);
  });

  it('declares four requests a second per webhook, keyed without the signature', () => {
    const [limit] = fx.publisher.rateLimits?.(fx.account) ?? [];
    assert.equal(limit?.scope, 'webhook');
    assert.equal(limit?.limit, 4);
    assert.equal(limit?.windowMs, 1000);
    assert.ok(!limit!.key.includes(fx.fake.workflow.sig));
    const other = {
      ...fx.account,
      credentials: { webhookUrl: fx.fake.webhookUrl(fx.fake.workflow, 'rotated') },
    };
    assert.equal(fx.publisher.rateLimits?.(other)[0]?.key, limit?.key, 'a new signature is the same webhook');
  });
});

describe('Teams credentials check', () => {
  it('checks the shape and the host without posting anything, and keeps the channel label', async () => {
    const profile = await fx.publisher.verifyCredentials(fx.account);
    assert.deepEqual(profile, { name: 'Marketing › General', platformAccountId: 'Marketing › General' });
    assert.equal(fx.fake.server.requests.length, 0, 'nothing was sent to the webhook');
    const unnamed = await fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: '' });
    assert.match(unnamed.platformAccountId!, /^webhook-/);
    const malformed = await rejection(
      fx.publisher.verifyCredentials({
        ...fx.account,
        credentials: { webhookUrl: 'https://example.com/hook' },
      }),
    );
    assert.equal(malformed.code, 'credentials_invalid');
  });

  it('refuses a private host through the SSRF-safe fetch unless it is allowed', async () => {
    const refused = await rejection(
      fx.publisher.verifyCredentials(fx.account, {
        signal: AbortSignal.timeout(5000),
        accountHostFetch: createSafeFetch(),
      }),
    );
    assert.equal(refused.code, 'target_unreachable');
    assert.match(refused.message, /ALLOW_PRIVATE_HOSTS/);
    const host = new URL(fx.fake.url);
    const allowed = createSafeFetch({ allowPrivateHosts: [{ host: host.hostname, port: host.port }] });
    assert.equal(
      (
        await fx.publisher.verifyCredentials(fx.account, {
          signal: AbortSignal.timeout(5000),
          accountHostFetch: allowed,
        })
      ).name,
      'Marketing › General',
    );
    const published = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        fx.account,
        [],
        {},
        { ...context(), accountHostFetch: createSafeFetch() },
      ),
    );
    assert.equal(published.code, 'target_unreachable');
    assert.equal(fx.fake.server.requests.length, 0);
  });
});
