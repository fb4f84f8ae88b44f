import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { oddTargetFailure, send, sendRaw } from '../../shared/test/support/http-fuzz.ts';
import { apiKey, fakeTelegram, startTestServer, type TestServer } from './helpers.ts';

/** Hostile input is a 4xx problem, never a 5xx (SECURITY.md, "No 5xx from input"). */
describe('self-hosted: hostile input', () => {
  let server: TestServer;
  let telegram: Awaited<ReturnType<typeof fakeTelegram>>;
  before(async () => {
    telegram = await fakeTelegram();
    server = await startTestServer({ telegram });
  });
  after(async () => {
    await server?.close();
    await telegram?.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    send(server.url, {
      method: 'POST',
      path: '/api/v1/posts',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...headers },
      body: Buffer.from(body),
    });

  test('JSON nested deeper than 32 levels is 400 invalid_request, with or without an Idempotency-Key', async () => {
    const deep = `{"message":"hi","accountIds":["tg-main"],"postingMode":"now","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    for (const headers of [{}, { 'idempotency-key': 'deep-1' }] as Record<string, string>[]) {
      const answer = await post(deep, headers);
      assert.equal(answer.status, 400, answer.body);
      assert.equal(JSON.parse(answer.body).code, 'invalid_request');
    }
    assert.equal(telegram.sent.length, 0);
  });

  test('NUL in any text field is 400 invalid_request and nothing is published', async () => {
    const answer = await post(
      JSON.stringify({ message: 'a\u0000b', accountIds: ['tg-main'], postingMode: 'now' }),
    );
    assert.equal(answer.status, 400, answer.body);
    assert.equal(JSON.parse(answer.body).code, 'invalid_request');
  });

  test('a number beyond a double (1e400) is 400 invalid_request and nothing is published', async () => {
    const answer = await post(
      '{"message":"hi","accountIds":["tg-main"],"postingMode":"now","accountOptions":{"tg-main":{"x":1e400}}}',
    );
    assert.equal(answer.status, 400, answer.body);
    assert.equal(JSON.parse(answer.body).code, 'invalid_request');
    assert.match(JSON.parse(answer.body).detail, /out of range/);
    assert.equal(telegram.sent.length, 0);
  });

  test('a lone surrogate in any text is 422 lone_surrogate at its path and nothing is published', async () => {
    const answer = await post(
      '{"message":"half \\ud83d an emoji","accountIds":["tg-main"],"postingMode":"now"}',
    );
    assert.equal(answer.status, 422, answer.body);
    const problem = JSON.parse(answer.body);
    assert.deepEqual(
      [problem.code, problem.errors[0].code, problem.errors[0].path],
      ['validation_failed', 'lone_surrogate', 'message'],
    );
    assert.equal(telegram.sent.length, 0);
  });

  test('malformed percent-encoding in paths and queries is a 4xx', async () => {
    for (const path of ['/media/%ZZ', '/media/%', '/api/v1/accounts?x=%ZZ', '/%E0%A4%A', '/api/v1/%ZZ']) {
      const answer = await send(server.url, {
        method: 'GET',
        path,
        headers: { 'x-api-key': apiKey },
        body: undefined,
      });
      assert.equal(answer.status, 400, `${path}: ${answer.status} ${answer.body}`);
      assert.equal(JSON.parse(answer.body).code, 'invalid_request');
    }
  });

  test('an oversize header is 400 invalid_request (contract D), a problem body', async () => {
    const answer = await send(server.url, {
      method: 'GET',
      path: '/api/v1/accounts',
      headers: { 'x-api-key': apiKey, 'x-big': 'a'.repeat(20 * 1024) },
      body: undefined,
    });
    assert.equal(answer.status, 400);
    assert.equal(JSON.parse(answer.body).code, 'invalid_request');
  });

  test('an HTTP/1.1 request without Host is 400 invalid_request with a problem body, not a bare 400', async () => {
    const answer = await sendRaw(
      server.url,
      `GET /api/v1/accounts HTTP/1.1\r\nx-api-key: ${apiKey}\r\nConnection: close`,
    );
    assert.equal(answer.status, 400);
    assert.match(answer.contentType, /^application\/problem\+json/);
    assert.equal(JSON.parse(answer.body).code, 'invalid_request');
    // HTTP/1.0 has no Host requirement: still served.
    const old = await sendRaw(server.url, `GET /health HTTP/1.0\r\nConnection: close`);
    assert.equal(old.status, 200);
  });

  test('an absolute-form target is served as its path (RFC 9112), the asterisk form only for OPTIONS', async () => {
    const host = new URL(server.url).host;
    const absolute = await sendRaw(
      server.url,
      `GET http://${host}/api/v1/accounts HTTP/1.1\r\nHost: ${host}\r\nx-api-key: ${apiKey}\r\nConnection: close`,
    );
    assert.equal(absolute.status, 200, absolute.body);
    assert.equal(await oddTargetFailure(server.url), undefined);
  });
});
