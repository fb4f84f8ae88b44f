import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiKey, botToken, fakeTelegram, otherBotToken, startTestServer } from './helpers.ts';

describe('logs', () => {
  it('carry request ids but never the API key, bot tokens or message bodies', async () => {
    const telegram = await fakeTelegram();
    const server = await startTestServer({ telegram, env: { LOG_LEVEL: 'info' } });
    try {
      const secretMessage = 'confidential announcement 7f3a';
      await server.api('/api/v1/posts', {
        json: { message: secretMessage, accountIds: ['tg-main', 'tg-gone'], postingMode: 'now' },
        headers: { 'x-request-id': 'trace-42', authorization: 'Bearer something' },
      });
      telegram.injectServerError(500, { times: 50 });
      await server.api('/api/v1/posts', {
        json: { message: secretMessage, accountIds: ['tg-news'], postingMode: 'now' },
      });
      await server.api('/api/v1/accounts', { headers: { 'x-api-key': 'wrong-key-value' } });
      await server.api('/api/v1/validation', { method: 'POST', body: `{"message":"${secretMessage}",` });
    } finally {
      await server.close();
      await telegram.close();
    }
    const text = server.logs.join('\n');
    assert.ok(server.logs.length > 4);
    assert.ok(server.logs.every((line) => JSON.parse(line)));
    assert.match(text, /"id":"trace-42"/);
    for (const secret of [
      apiKey,
      botToken,
      otherBotToken,
      'wrong-key-value',
      'Bearer something',
      'confidential',
    ]) {
      assert.ok(!text.includes(secret), `logs contain ${secret}`);
    }
  });
});

describe('graceful shutdown', () => {
  it('stops accepting but finishes a publish in flight', async () => {
    const telegram = await fakeTelegram();
    const server = await startTestServer({ telegram });
    try {
      telegram.injectServerError(502, { times: 1, delayMs: 300 });
      const inFlight = server.api('/api/v1/posts', {
        json: { message: 'slow', accountIds: ['tg-main'], postingMode: 'now' },
      });
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(server.services.publishing.inFlight, 1);
      const closing = server.close();
      const response = await inFlight;
      assert.equal(response.status, 200);
      await closing;
      assert.equal(telegram.sent.length, 1);
      await assert.rejects(fetch(`${server.url}/health`));
    } finally {
      await telegram.close();
    }
  });
});
