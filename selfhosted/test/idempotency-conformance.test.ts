import { after, before, describe } from 'node:test';
import type { FakeTelegram } from '@postwave/shared/testing';
import { type IdempotencyTarget, idempotencyConformance } from '../../shared/test/idempotency/conformance.ts';
import { telegramHooks } from '../../shared/test/idempotency/telegram-target.ts';
import { apiKey, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

describe('Idempotency-Key conformance (self-hosted server)', () => {
  let telegram: FakeTelegram;
  let server: TestServer;
  let target: IdempotencyTarget;
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram });
    target = {
      url: server.url,
      headers: { 'x-api-key': apiKey },
      post: (message) => ({ message, accountIds: ['tg-main'], postingMode: 'now' }),
      invalidPost: (message) => ({ message, accountIds: ['nobody'], postingMode: 'now' }),
      publishedStatus: 200,
      failedStatus: 502,
      ...telegramHooks(telegram),
    };
  });
  after(async () => {
    await server?.close();
    await telegram?.close();
  });

  idempotencyConformance(() => target, { callers: 'one', postActions: false });
});
