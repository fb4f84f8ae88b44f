import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type FakeNostrRelay,
  isValidNostrEvent,
  nostrTestIdentity,
  samplePng,
  startFakeNostrRelay,
} from '@postwave/shared/testing';
import { startTestServer, type TestServer } from './helpers.ts';

const { nsec, npub } = nostrTestIdentity();

/** The self-hosted server signing notes and sending them to the operator's relays (NOSTR_RELAYS). */
describe('self-hosted: Nostr', () => {
  let accepting: FakeNostrRelay;
  let refusing: FakeNostrRelay;
  let server: TestServer;
  before(async () => {
    accepting = await startFakeNostrRelay();
    refusing = await startFakeNostrRelay({ mode: 'refuse', refuseMessage: 'blocked: pay to post' });
    server = await startTestServer({
      accounts: [
        {
          id: 'nostr',
          platform: 'nostr',
          platformAccountId: npub,
          credentials: { secretKey: nsec },
        },
        {
          id: 'nostr-paid',
          platform: 'nostr',
          platformAccountId: npub,
          credentials: { secretKey: nsec },
          options: { relays: [refusing.url] },
        },
      ],
      env: { NOSTR_RELAYS: `${accepting.url},${refusing.url}` },
    });
  });
  after(async () => {
    await server.close();
    await accepting.close();
    await refusing.close();
  });

  it('validates, uploads and publishes a note with media; per-relay answers in the result', async () => {
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'dot.png');
    const uploaded = await server.api('/api/v1/upload', { method: 'POST', body });
    const { media } = (await uploaded.json()) as { media: { url: string } };
    const validation = await server.api('/api/v1/validation', {
      json: { message: 'Hello Nostr', accountIds: ['nostr'], media: [media] },
    });
    const checked = (await validation.json()) as {
      valid: boolean;
      results: { warnings: { code: string }[] }[];
    };
    assert.equal(checked.valid, true);
    assert.deepEqual(
      checked.results[0]!.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );

    const response = await server.api('/api/v1/posts', {
      json: { message: 'Hello Nostr', accountIds: ['nostr'], postingMode: 'now', media: [media] },
    });
    const result = (await response.json()) as {
      results: {
        status: string;
        platformPostId: string;
        details: { relays: { url: string; status: string; message?: string }[] };
      }[];
    };
    assert.equal(response.status, 200, JSON.stringify(result));
    const event = accepting.events.at(-1)!;
    assert.ok(isValidNostrEvent(event));
    assert.equal(event.content, `Hello Nostr\n\n${media.url}`);
    assert.equal(result.results[0]!.platformPostId, event.id);
    assert.deepEqual(result.results[0]!.details.relays, [
      { url: accepting.url, status: 'accepted' },
      { url: refusing.url, status: 'refused', message: 'blocked: pay to post' },
    ]);
    assert.ok(!server.logs.join('\n').includes(nsec), 'the key is never logged');
  });

  it("an account's relays replace NOSTR_RELAYS; when every relay refuses, the post fails with their reasons", async () => {
    const response = await server.api('/api/v1/posts', {
      json: { message: 'Paid relay only', accountIds: ['nostr-paid'], postingMode: 'now' },
    });
    const body = (await response.json()) as {
      results: { status: string; error: { code: string; message: string } }[];
    };
    assert.equal(response.status, 502);
    assert.equal(body.results[0]!.error.code, 'content_rejected');
    assert.match(body.results[0]!.error.message, /blocked: pay to post/);
    assert.ok(!accepting.events.some((e) => e.content === 'Paid relay only'));
  });

  it("relays a request names are the caller's choice: a loopback relay is refused before any connection (contract C, D)", async () => {
    const connectionsBefore = accepting.connections.length;
    const response = await server.api('/api/v1/posts', {
      json: {
        message: 'Relay from the request',
        accountIds: ['nostr'],
        postingMode: 'now',
        accountOptions: { nostr: { relays: [accepting.url] } },
      },
    });
    const body = (await response.json()) as {
      results: { status: string; error: { code: string; message: string } }[];
    };
    assert.equal(response.status, 502, JSON.stringify(body));
    assert.equal(body.results[0]!.status, 'failed');
    assert.ok(!accepting.events.some((e) => e.content === 'Relay from the request'));
    assert.equal(accepting.connections.length, connectionsBefore, 'the relay was never connected to');
  });

  it('ALLOW_PRIVATE_HOSTS lets a request name a private relay it lists, and only that one (contract D)', async () => {
    const listed = new URL(accepting.url).host;
    const allowing = await startTestServer({
      accounts: [
        { id: 'nostr', platform: 'nostr', platformAccountId: npub, credentials: { secretKey: nsec } },
      ],
      env: { NOSTR_RELAYS: refusing.url, ALLOW_PRIVATE_HOSTS: listed },
    });
    try {
      const post = (message: string, relay: string) =>
        allowing.api('/api/v1/posts', {
          json: {
            message,
            accountIds: ['nostr'],
            postingMode: 'now',
            accountOptions: { nostr: { relays: [relay] } },
          },
        });
      const allowed = await post('Relay the operator allows', accepting.url);
      assert.equal(allowed.status, 200, await allowed.clone().text());
      assert.ok(accepting.events.some((e) => e.content === 'Relay the operator allows'));

      const refusingConnections = refusing.connections.length;
      const unlisted = await post('Relay the operator does not list', refusing.url);
      assert.equal(unlisted.status, 502);
      assert.equal(
        refusing.connections.length,
        refusingConnections,
        'the unlisted relay was never connected to',
      );
    } finally {
      await allowing.close();
    }
  });
});
