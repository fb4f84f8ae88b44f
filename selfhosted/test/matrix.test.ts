import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeMatrix, startFakeMatrix } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Matrix through the self-hosted server; the accounts file's homeserver is trusted (plain fetch). */
describe('self-hosted: Matrix', () => {
  let matrix: FakeMatrix;
  let server: TestServer;
  let roomId: string;
  before(async () => {
    matrix = await startFakeMatrix();
    const room = matrix.addRoom({ name: 'Ops' });
    roomId = room.id;
    const bot = matrix.addUser('postwave', [room.id]);
    server = await startTestServer({
      accounts: [
        {
          id: 'mx-ops',
          platform: 'matrix',
          platformAccountId: room.id,
          credentials: matrix.credentials(bot.accessToken),
        },
      ],
    });
  });
  after(async () => {
    await server?.close();
    await matrix?.close();
  });

  it('validates the 65,536-byte event: a long text loses its HTML copy, a longer one is refused', async () => {
    const long = await validation(server, { message: 'a'.repeat(40_000), accountIds: ['mx-ops'] });
    assert.deepEqual([long.valid, long.warnings], [true, ['formatting_dropped']]);
    assert.deepEqual(
      (await validation(server, { message: 'a'.repeat(65_000), accountIds: ['mx-ops'] })).errors,
      ['text_too_long'],
    );
  });

  it('posts the text with its HTML, then the image event, and answers a replay without posting again', async () => {
    const media = [{ ...(await uploadPng(server)), altText: 'Uptime chart' }];
    const body = {
      message: 'Status: all green\n\nhttps://status.example.com',
      accountIds: ['mx-ops'],
      media,
    };
    const response = await server.api('/api/v1/posts', {
      json: { ...body, postingMode: 'now' },
      headers: { 'idempotency-key': 'matrix-selfhosted-1' },
    });
    const raw = await response.text();
    assert.equal(response.status, 200, raw);
    assert.deepEqual(
      matrix.events.map((e) => [e.content.msgtype, e.content.body]),
      [
        ['m.text', 'Status: all green\n\nhttps://status.example.com'],
        ['m.image', 'Uptime chart'],
      ],
    );
    assert.match(
      String(matrix.events[0]!.content.formatted_body),
      /<a href="https:\/\/status\.example\.com">/,
    );
    assert.equal(matrix.events[1]!.roomId, roomId);
    const again = await server.api('/api/v1/posts', {
      json: { ...body, postingMode: 'now' },
      headers: { 'idempotency-key': 'matrix-selfhosted-1' },
    });
    assert.equal(await again.text(), raw);
    assert.equal(matrix.events.length, 2);
  });

  it('a revoked token fails for good as needs_reconnect', async () => {
    const bot = matrix.addUser('temp', [roomId]);
    matrix.logout(bot.accessToken);
    const failed = await server.services.publishers
      .get('matrix')!
      .verifyCredentials({
        id: 'x',
        platform: 'matrix',
        platformAccountId: roomId,
        credentials: matrix.credentials(bot.accessToken),
      })
      .catch((error: { code: string }) => error.code);
    assert.equal(failed, 'needs_reconnect');
    const text = await publishNow(server, { message: 'still fine', accountIds: ['mx-ops'] });
    assert.equal(text.status, 200, text.raw);
  });
});
