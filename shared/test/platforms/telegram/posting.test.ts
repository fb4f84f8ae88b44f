import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { errorHint } from '../../../src/error-hints.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import { telegramModule } from '../../../src/platforms/telegram/index.ts';
import { TelegramPublisher } from '../../../src/platforms/telegram/publisher.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type PostInput, PostingService } from '../../../src/publish/posting.ts';
import type { RetryPolicy } from '../../../src/publish/retry.ts';
import type { FakeTelegram } from '../../fakes/telegram.ts';
import { sampleBytes } from './media.ts';
import { MemoryStorage } from './memory-storage.ts';
import { account, startTelegram } from './setup.ts';

const fastPolicy = (): RetryPolicy => ({
  maxAttempts: 3,
  baseDelayMs: 5,
  maxDelayMs: 20,
  deadline: Date.now() + 5_000,
});

async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('PostingService with Telegram', () => {
  let tg: FakeTelegram;
  let service: PostingService;
  const storage = new MemoryStorage();
  const accounts = new Map<string, PlatformAccount>(
    [
      account('@news', { id: 'news' }),
      account('-1009876543210', { id: 'team' }),
      account('@gone', { id: 'gone' }),
    ].map((a) => [a.id, a]),
  );
  const lookup = (id: string) => accounts.get(id);

  async function post(input: Partial<PostInput> & { accountIds: string[] }) {
    const prepared = await service.prepare({ message: 'Hello', media: [], ...input }, lookup);
    if (!prepared.targets) return { prepared, results: undefined };
    return { prepared, results: await service.publish(prepared, { retryPolicy: fastPolicy() }) };
  }

  before(async () => {
    tg = await startTelegram();
    const registry = PublisherRegistry.fromEnv({ TELEGRAM_API_URL: tg.url }, [telegramModule]);
    service = new PostingService({ publishers: registry, storage });
    storage.add('photo-1.jpg', 'image/jpeg', sampleBytes('image/jpeg'));
    storage.add('photo-2.png', 'image/png', sampleBytes('image/png'));
    storage.add('doc.pdf', 'application/pdf', sampleBytes('application/pdf'));
  });
  beforeEach(() => {
    tg.sent.length = 0;
    tg.server.requests.length = 0;
    tg.clearInjected();
  });
  after(() => tg.close());

  it('publishes to two targets concurrently and returns per-target results', async () => {
    // Both first attempts are held; both reaching the fake while held proves they ran together.
    tg.inject({
      delayMs: 1000,
      status: 502,
      json: { ok: false, error_code: 502, description: 'Bad Gateway' },
      times: 2,
    });
    const publishing = post({ accountIds: ['news', 'team'] });
    await until(() => tg.requestCount('sendMessage') === 2, 900);
    const { results } = await publishing;
    assert.deepEqual(
      results!.map((r) => [r.accountId, r.status]),
      [
        ['news', 'posted'],
        ['team', 'posted'],
      ],
    );
    assert.match(results![0]!.url!, /^https:\/\/t\.me\/news\/\d+$/);
    assert.equal(results![1]!.url, undefined);
    assert.deepEqual(tg.sent.map((s) => s.chatId).sort(), [-1009876543210, -1001234567890].sort());
  });

  it('sends nothing anywhere when one target is invalid', async () => {
    const { prepared, results } = await post({
      accountIds: ['news', 'team'],
      accountOptions: { team: { parseMode: 'Markdown' } },
    });
    assert.equal(results, undefined);
    assert.equal(prepared.validation.valid, false);
    const byId = Object.fromEntries(prepared.validation.results.map((r) => [r.accountId, r]));
    assert.equal(byId.news!.valid, true);
    assert.equal(byId.team!.errors[0]!.code, 'invalid_option');
    assert.equal(byId.team!.errors[0]!.path, 'accountOptions.team.parseMode');
    assert.equal(tg.requests.length, 0);
  });

  it('sends nothing when the media is too many for Telegram', async () => {
    const media = Array.from({ length: 11 }, () => ({ key: 'photo-1.jpg' }));
    const { prepared } = await post({ accountIds: ['news'], media });
    assert.deepEqual(
      prepared.validation.results[0]!.errors.map((e) => e.code),
      ['too_many_media'],
    );
    assert.equal(tg.requests.length, 0);
  });

  it('reports an unknown account as account_not_found and publishes nothing', async () => {
    const { prepared } = await post({ accountIds: ['news', 'nobody'] });
    const unknown = prepared.validation.results.find((r) => r.accountId === 'nobody')!;
    assert.equal(unknown.errors[0]!.code, 'account_not_found');
    assert.equal(tg.requests.length, 0);
  });

  it('reports unknown media keys and publishes nothing', async () => {
    const { prepared } = await post({ accountIds: ['news'], media: [{ key: 'missing.jpg' }] });
    assert.equal(prepared.validation.results[0]!.errors[0]!.code, 'media_not_found');
    assert.equal(tg.requests.length, 0);
  });

  it('uploads stored media by key, as an album with the caption first', async () => {
    const { results } = await post({
      accountIds: ['news'],
      message: 'Two photos',
      media: [{ key: 'photo-1.jpg', url: 'https://evil.example/x', size: 1 }, { key: 'photo-2.png' }],
    });
    assert.equal(results![0]!.status, 'posted');
    const sent = tg.sent[0]!;
    assert.equal(sent.method, 'sendMediaGroup');
    assert.equal(sent.caption, 'Two photos');
    assert.deepEqual(
      sent.files.map((f) => f.contentType),
      ['image/jpeg', 'image/png'],
    );
  });

  it('gives each target its own result when one fails for good', async () => {
    const { results } = await post({ accountIds: ['news', 'gone'] });
    const byId = Object.fromEntries(results!.map((r) => [r.accountId, r]));
    assert.equal(byId.news!.status, 'posted');
    assert.equal(byId.gone!.status, 'failed');
    assert.deepEqual(byId.gone!.error, {
      code: 'target_unreachable',
      message: byId.gone!.error!.message,
      retryable: false,
      // Contract section F: every error carries a hint in plain words, and the platform's status.
      hint: errorHint('target_unreachable'),
      platformStatus: 403,
    });
    assert.equal(tg.requestCount('sendMessage'), 2, 'the permanent failure was not retried');
  });

  it('honours 429 retry_after and then posts once', async () => {
    tg.injectRateLimit(0.2, { method: 'sendMessage' });
    const began = Date.now();
    const { results } = await post({ accountIds: ['news'] });
    assert.equal(results![0]!.status, 'posted');
    assert.ok(Date.now() - began >= 190, 'waited the retry_after');
    assert.equal(tg.requestCount('sendMessage'), 2);
    assert.equal(tg.sent.length, 1);
  });

  it('retries 5xx and gives up after maxAttempts with a retryable error', async () => {
    tg.injectServerError(502, { times: 5 });
    const { results } = await post({ accountIds: ['news'] });
    assert.equal(results![0]!.status, 'failed');
    assert.deepEqual(
      [results![0]!.error!.code, results![0]!.error!.retryable],
      ['platform_unavailable', true],
    );
    assert.equal(tg.requestCount('sendMessage'), 3);
    assert.equal(tg.sent.length, 0);
  });

  it('does not retry a rejected post', async () => {
    const { results } = await post({
      accountIds: ['news'],
      message: '<b>x',
      accountOptions: { news: { parseMode: 'HTML' } },
    });
    assert.equal(results![0]!.error!.code, 'content_rejected');
    assert.equal(tg.requestCount('sendMessage'), 1);
  });

  it('retries a request that timed out', async () => {
    const impatient = new PostingService({
      publishers: new PublisherRegistry([new TelegramPublisher({ apiUrl: tg.url, requestTimeoutMs: 250 })]),
      storage,
    });
    tg.inject({
      delayMs: 800,
      status: 504,
      json: { ok: false, error_code: 504, description: 'Gateway Timeout' },
    });
    const prepared = await impatient.prepare({ message: 'Hello', accountIds: ['news'], media: [] }, lookup);
    const results = await impatient.publish(prepared, { retryPolicy: fastPolicy() });
    assert.equal(results[0]!.status, 'posted');
    assert.equal(tg.requestCount('sendMessage'), 2);
    assert.equal(tg.sent.length, 1);
  });
});
