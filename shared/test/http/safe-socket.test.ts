import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addressPolicyOf,
  createSafeFetch,
  openSocket,
  parseAllowedPrivateHosts,
  UnsafeUrlError,
} from '../../src/http/index.ts';
import { type FakeNostrRelay, startFakeNostrRelay } from '../fakes/nostr-relay.ts';

/** WebSockets to user-chosen hosts (Nostr relays) follow the SSRF rules of the safe fetch (contract D). */
describe('openSocket: the address policy for WebSockets', () => {
  let relay: FakeNostrRelay;
  let port: string;
  before(async () => {
    relay = await startFakeNostrRelay();
    port = new URL(relay.url).port;
  });
  after(() => relay.close());

  const code = async (p: Promise<unknown>) => {
    try {
      const socket = await p;
      (socket as { close(): void }).close();
      return 'ok';
    } catch (error) {
      assert.ok(error instanceof UnsafeUrlError, String(error));
      return error.code;
    }
  };

  test('a relay on a loopback or private address is refused unless ALLOW_PRIVATE_HOSTS allows it; nothing connects', async () => {
    const before = relay.connections.length;
    assert.equal(await code(openSocket(relay.url, { policy: {} })), 'url_not_allowed');
    assert.equal(await code(openSocket(`ws://localhost:${port}`, { policy: {} })), 'url_not_allowed');
    const resolvesPrivate = { resolve: async () => [{ address: '10.1.2.3', family: 4 }] };
    assert.equal(
      await code(openSocket('wss://relay.example', { policy: resolvesPrivate })),
      'url_not_allowed',
    );
    const metadata = { resolve: async () => [{ address: '169.254.169.254', family: 4 }] };
    assert.equal(await code(openSocket('wss://meta.example', { policy: metadata })), 'url_not_allowed');
    const cgnat = { resolve: async () => [{ address: '100.64.0.9', family: 4 }] };
    assert.equal(await code(openSocket('wss://cgnat.example', { policy: cgnat })), 'url_not_allowed');
    assert.equal(await code(openSocket('https://relay.example', { policy: {} })), 'url_not_allowed');
    assert.equal(await code(openSocket('not a url', { policy: {} })), 'invalid_url');
    // A public name is still held to wss on the default port.
    const publicName = { resolve: async () => [{ address: '93.184.215.14', family: 4 }] };
    assert.equal(await code(openSocket('ws://relay.example', { policy: publicName })), 'url_not_allowed');
    assert.equal(relay.connections.length, before, 'no connection reached the relay');
  });

  test('an allowed host:port connects; another port of the same host does not', async () => {
    const allowed = { allowPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${port}`) };
    assert.equal(await code(openSocket(relay.url, { policy: allowed })), 'ok');
    const otherPort = { allowPrivateHosts: parseAllowedPrivateHosts(`127.0.0.1:${Number(port) + 1}`) };
    assert.equal(await code(openSocket(relay.url, { policy: otherPort })), 'url_not_allowed');
  });

  test('DNS is resolved once and the socket is pinned to that address, keeping the name in Host', async () => {
    let lookups = 0;
    const policy = {
      allowPrivateHosts: parseAllowedPrivateHosts('relay.test'),
      resolve: async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    };
    assert.equal(await code(openSocket(`ws://relay.test:${port}`, { policy })), 'ok');
    assert.equal(lookups, 1);
    assert.equal(relay.connections.at(-1)?.host, `relay.test:${port}`);
  });

  test('the safe fetch carries its policy to sockets; any other fetch for user hosts gets the strictest', () => {
    const allow = parseAllowedPrivateHosts('127.0.0.1');
    assert.deepEqual(
      addressPolicyOf(createSafeFetch({ allowPrivateHosts: allow }))?.allowPrivateHosts,
      allow,
    );
    assert.deepEqual(
      addressPolicyOf((input, init) => fetch(input, init)),
      {},
    );
    assert.equal(addressPolicyOf(undefined), undefined);
  });
});
