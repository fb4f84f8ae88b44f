import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FakeTelegram } from '@postwave/shared/testing';
import { expectProblem, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

describe('validation and publishing', () => {
  let telegram: FakeTelegram;
  let server: TestServer;
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram });
  });
  after(async () => {
    await server.close();
    await telegram.close();
  });
  beforeEach(() => {
    telegram.sent.length = 0;
    telegram.clearInjected();
  });

  it('validates a good post as valid, and reports unknown accounts', async () => {
    const ok = await server.api('/api/v1/validation', {
      json: { message: 'Hello', accountIds: ['tg-main'], unknownField: true },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), {
      valid: true,
      results: [{ accountId: 'tg-main', platform: 'telegram', valid: true, errors: [], warnings: [] }],
    });

    const unknown = await server.api('/api/v1/validation', {
      json: { message: 'Hello', accountIds: ['tg-main', 'nobody'] },
    });
    assert.equal(unknown.status, 200);
    const body = (await unknown.json()) as { valid: boolean; results: { errors: { code: string }[] }[] };
    assert.equal(body.valid, false);
    assert.equal(body.results[1]!.errors[0]!.code, 'account_not_found');
    assert.equal(telegram.sent.length, 0);
  });

  it('reports a too-long message as invalid (200, valid: false)', async () => {
    const response = await server.api('/api/v1/validation', {
      json: { message: 'x'.repeat(5000), accountIds: ['tg-main'] },
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { valid: boolean };
    assert.equal(body.valid, false);
  });

  it('publishes to every account: 200 posted, with per-target results', async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Hello both', accountIds: ['tg-main', 'tg-news'], postingMode: 'now' },
    });
    const body = (await response.json()) as { status: string; results: Record<string, unknown>[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.status, 'posted');
    assert.deepEqual(body.results.map((r) => [r.accountId, r.status]).sort(), [
      ['tg-main', 'posted'],
      ['tg-news', 'posted'],
    ]);
    assert.ok(body.results.every((r) => typeof r.platformPostId === 'string'));
    assert.equal(telegram.sent.length, 2);
    assert.ok(telegram.sent.every((m) => m.text === 'Hello both'));
    // The accounts file's options apply to tg-news.
    assert.equal(telegram.sent.find((m) => m.chatId === -1002)?.disableNotification, true);
  });

  it('merges accountOptions over the accounts file options', async () => {
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Loud',
        accountIds: ['tg-news'],
        postingMode: 'now',
        accountOptions: { 'tg-news': { disableNotification: false, protectContent: true } },
      },
    });
    assert.equal(response.status, 200);
    const sent = telegram.sent[0]!;
    assert.notEqual(sent.disableNotification, true);
    assert.equal(sent.protectContent, true);
  });

  it('refuses an invalid post with 422 and per-account errors, publishing nothing anywhere', async () => {
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Hello',
        accountIds: ['tg-main', 'tg-news', 'nobody'],
        postingMode: 'now',
        accountOptions: { 'tg-news': { notAnOption: 1 } },
      },
    });
    const body = await expectProblem(response, 422, 'validation_failed');
    const errors = body.errors as { accountId: string; code: string }[];
    assert.deepEqual(errors.map((e) => [e.accountId, e.code]).sort(), [
      ['nobody', 'account_not_found'],
      ['tg-news', 'invalid_option'],
    ]);
    assert.equal(telegram.sent.length, 0);
  });

  it('answers 207 partial when one of two targets fails', async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Half', accountIds: ['tg-main', 'tg-gone'], postingMode: 'now' },
    });
    const body = (await response.json()) as {
      status: string;
      results: { accountId: string; status: string; error?: { code: string; retryable: boolean } }[];
    };
    assert.equal(response.status, 207, JSON.stringify(body));
    assert.equal(body.status, 'partial');
    const gone = body.results.find((r) => r.accountId === 'tg-gone')!;
    assert.equal(gone.status, 'failed');
    assert.equal(gone.error?.retryable, false);
    assert.equal(body.results.find((r) => r.accountId === 'tg-main')!.status, 'posted');
    assert.equal(telegram.sent.length, 1);
  });

  it('answers 502 publish_failed with results when every target fails', async () => {
    telegram.injectServerError(500, { times: 100 });
    const response = await server.api('/api/v1/posts', {
      json: { message: 'None', accountIds: ['tg-main', 'tg-news'], postingMode: 'now' },
    });
    const body = await expectProblem(response, 502, 'publish_failed');
    const results = body.results as { status: string; error: { retryable: boolean } }[];
    assert.equal(results.length, 2);
    assert.ok(results.every((r) => r.status === 'failed' && r.error.retryable));
    assert.equal(telegram.sent.length, 0);
  });

  it('retries a transient failure and then posts', async () => {
    telegram.injectServerError(502, { times: 1 });
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Retry me', accountIds: ['tg-main'], postingMode: 'now' },
    });
    assert.equal(response.status, 200);
    assert.equal(telegram.sent.length, 1);
  });

  it('answers schedule, queue and draft with 501 naming the Scheduler, unknown modes with 422', async () => {
    for (const postingMode of ['schedule', 'queue', 'draft']) {
      const body = await expectProblem(
        await server.api('/api/v1/posts', {
          json: {
            message: 'Later',
            accountIds: ['tg-main'],
            postingMode,
            scheduledAt: '2030-01-01T10:00:00+01:00',
          },
        }),
        501,
        'not_supported',
      );
      assert.match(String(body.detail), /Scheduler/);
    }
    await expectProblem(
      await server.api('/api/v1/posts', {
        json: { message: 'x', accountIds: ['tg-main'], postingMode: 'soon' },
      }),
      422,
      'validation_failed',
    );
    // Contract B: the right types with a value not allowed is 422; a wrong type is 400.
    await expectProblem(
      await server.api('/api/v1/posts', { json: { message: 'x', accountIds: [], postingMode: 'now' } }),
      422,
      'validation_failed',
    );
    await expectProblem(
      await server.api('/api/v1/posts', {
        json: { message: 'x', accountIds: 'tg-main', postingMode: 'now' },
      }),
      400,
      'invalid_request',
    );
    assert.equal(telegram.sent.length, 0);
  });

  it('replays an Idempotency-Key once, answers a concurrent duplicate 409, and refuses it with another body', async () => {
    // The full protocol is shared/test/idempotency/conformance.ts (idempotency-conformance.test.ts).
    const post = { message: 'Once only', accountIds: ['tg-main'], postingMode: 'now' };
    const send = (json: unknown, key = 'key-once-1') =>
      server.api('/api/v1/posts', { json, headers: { 'idempotency-key': key } });
    const [first, second] = await Promise.all([send(post), send(post)]);
    const third = await send({ postingMode: 'now', accountIds: ['tg-main'], message: 'Once only' });
    const statuses = [first.status, second.status].sort();
    assert.ok(
      (statuses[0] === 200 && statuses[1] === 409) || (statuses[0] === 200 && statuses[1] === 200),
      `${statuses}`,
    );
    assert.equal(third.status, 200);
    assert.equal(third.headers.get('idempotent-replayed'), 'true');
    const winner = first.status === 200 ? first : second;
    assert.equal(await third.text(), await winner.text());
    assert.equal(telegram.sent.length, 1);

    const other = await send({ ...post, message: 'Something else' });
    await expectProblem(other, 422, 'idempotency_key_reused');
    assert.equal(telegram.sent.length, 1);

    await expectProblem(await send(post, 'caf\u00e9'), 400, 'invalid_request');
  });

  it('lets a key refused before publishing be reused for the corrected post', async () => {
    const key = 'key-fix-1';
    const bad = await server.api('/api/v1/posts', {
      json: { message: 'x', accountIds: ['nobody'], postingMode: 'now' },
      headers: { 'idempotency-key': key },
    });
    assert.equal(bad.status, 422);
    const good = await server.api('/api/v1/posts', {
      json: { message: 'fixed', accountIds: ['tg-main'], postingMode: 'now' },
      headers: { 'idempotency-key': key },
    });
    assert.equal(good.status, 200);
    assert.equal(telegram.sent.length, 1);
  });
});

describe('without an accounts file', () => {
  let telegram: FakeTelegram;
  let server: TestServer;
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram, accounts: null });
  });
  after(async () => {
    await server.close();
    await telegram.close();
  });

  it('lists no accounts, rejects every account as accounts_not_configured and sends nothing', async () => {
    assert.deepEqual(await (await server.api('/api/v1/accounts')).json(), { accounts: [] });
    const validation = (await (
      await server.api('/api/v1/validation', { json: { message: 'x', accountIds: ['tg-main', 'b'] } })
    ).json()) as { valid: boolean; results: { errors: { code: string }[] }[] };
    assert.equal(validation.valid, false);
    assert.deepEqual(
      validation.results.map((r) => r.errors[0]!.code),
      ['accounts_not_configured', 'accounts_not_configured'],
    );
    const body = await expectProblem(
      await server.api('/api/v1/posts', {
        json: { message: 'x', accountIds: ['tg-main'], postingMode: 'now' },
      }),
      422,
      'validation_failed',
    );
    assert.equal((body.errors as { code: string }[])[0]!.code, 'accounts_not_configured');
    assert.equal(telegram.requests.length, 0);
  });
});
