import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeNostrRelay, nostrTestIdentity, startFakeNostrRelay } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { scheduleAndDispatch } from './support.ts';

const me = nostrTestIdentity(3);
const someoneElse = nostrTestIdentity(4);

for (const backend of backends()) {
  describe(`Scheduler: Nostr over HTTP (${backend})`, () => {
    let app: RunningApp;
    let operatorRelay: FakeNostrRelay;
    let userRelay: FakeNostrRelay;
    let privateRelay: FakeNostrRelay;
    before(async () => {
      [operatorRelay, userRelay, privateRelay] = await Promise.all([
        startFakeNostrRelay(),
        startFakeNostrRelay(),
        startFakeNostrRelay(),
      ]);
      app = await startApp(backend, {
        NOSTR_RELAYS: operatorRelay.url,
        NOSTR_RELAY_TIMEOUT_MS: '2000',
        // The user's relay is allowed; the private one is not.
        ALLOW_PRIVATE_HOSTS: new URL(userRelay.url).host,
      });
    });
    after(async () => {
      await app?.stop();
      await Promise.all([operatorRelay, userRelay, privateRelay].map((r) => r?.close()));
    });

    test('connects by key (npub from the key, checked against a given one), never returning the key', async () => {
      const { api } = await userWithToken(app.url, 'nostr-connect');
      const wrong = await api.json('/api/v1/accounts', {
        json: { platform: 'nostr', platformAccountId: someoneElse.npub, credentials: { secretKey: me.nsec } },
      });
      assert.equal(wrong.status, 422, JSON.stringify(wrong.body));
      assert.equal(wrong.body.code, 'credentials_invalid');
      const malformed = await api.json('/api/v1/accounts', {
        json: { platform: 'nostr', credentials: { secretKey: 'nsec1nope' } },
      });
      assert.equal(malformed.status, 422);
      const ok = await api.json('/api/v1/accounts', {
        json: { platform: 'nostr', credentials: { secretKey: me.secretHex } },
      });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      assert.equal(ok.body.platformAccountId, me.npub);
      const listed = await api.json('/api/v1/accounts');
      assert.ok(!JSON.stringify(listed.body).includes(me.secretHex));
      assert.ok(!JSON.stringify(listed.body).includes(me.nsec));
    });

    test('publishes now and scheduled to NOSTR_RELAYS; each relay answer is in the stored result', async () => {
      const { api } = await userWithToken(app.url, 'nostr-publish');
      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'nostr', credentials: { secretKey: me.nsec } },
      });
      const now = await api.json('/api/v1/posts', {
        json: { message: 'gm from the Scheduler', accountIds: [account.body.id], postingMode: 'now' },
      });
      assert.equal(now.status, 201, JSON.stringify(now.body));
      assert.equal(now.body.status, 'posted', JSON.stringify(now.body.results));
      const event = operatorRelay.events.find((e) => e.content === 'gm from the Scheduler')!;
      assert.equal(now.body.results[0].platformPostId, event.id);
      assert.deepEqual(now.body.results[0].details, {
        relays: [{ url: operatorRelay.url, status: 'accepted' }],
      });

      const later = await scheduleAndDispatch(app, api, {
        message: 'scheduled note',
        accountIds: [account.body.id],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.deepEqual(later.results[0].details.relays, [{ url: operatorRelay.url, status: 'accepted' }]);
      assert.equal(operatorRelay.events.filter((e) => e.content === 'scheduled note').length, 1);
    });

    test("a user's relays follow the SSRF rules: a private relay is refused unless ALLOW_PRIVATE_HOSTS allows it", async () => {
      const { api } = await userWithToken(app.url, 'nostr-relays');
      const account = await api.json('/api/v1/accounts', {
        json: { platform: 'nostr', credentials: { secretKey: me.nsec } },
      });
      const id = account.body.id;
      const refused = await api.json('/api/v1/posts', {
        json: {
          message: 'to a private relay',
          accountIds: [id],
          postingMode: 'now',
          accountOptions: { [id]: { relays: [privateRelay.url] } },
        },
      });
      assert.equal(refused.body.status, 'failed', JSON.stringify(refused.body));
      assert.equal(refused.body.results[0].error.code, 'target_unreachable');
      assert.match(refused.body.results[0].error.message, /ALLOW_PRIVATE_HOSTS/);
      assert.equal(privateRelay.connections.length, 0, 'nothing connected to the private relay');

      const allowed = await api.json('/api/v1/posts', {
        json: {
          message: 'to my relay',
          accountIds: [id],
          postingMode: 'now',
          accountOptions: { [id]: { relays: [userRelay.url] } },
        },
      });
      assert.equal(allowed.body.status, 'posted', JSON.stringify(allowed.body));
      assert.equal(userRelay.events.at(-1)?.content, 'to my relay');
      assert.ok(
        !operatorRelay.events.some((e) => e.content === 'to my relay'),
        'the option replaces NOSTR_RELAYS',
      );
    });
  });
}
