import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeMatrix, startFakeMatrix } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { userWithToken } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import { connectAccount, hostOf, publishNow, scheduleAndDispatch } from './chat-platforms.helpers.ts';

/*
 * Matrix through the Scheduler over HTTP: the homeserver is user-chosen, so it is reached only
 * through the SSRF-safe fetch (ALLOW_PRIVATE_HOSTS names the allowed fake; another one on
 * loopback is refused without a request reaching it). Connect by form, publish now and scheduled.
 */
for (const backend of backends()) {
  describe(`Matrix through the Scheduler (${backend})`, () => {
    let matrix: FakeMatrix;
    let unlisted: FakeMatrix;
    let app: RunningApp;
    let roomId: string;
    let alias: string;
    let token: string;
    before(async () => {
      [matrix, unlisted] = await Promise.all([startFakeMatrix(), startFakeMatrix()]);
      const room = matrix.addRoom({ name: 'Announcements', alias: '#news:fake.matrix.test' });
      roomId = room.id;
      alias = room.alias!;
      token = matrix.addUser('postwave', [room.id]).accessToken;
      app = await startApp(backend, { ALLOW_PRIVATE_HOSTS: hostOf(matrix.url) });
    });
    after(async () => {
      await app?.stop();
      await Promise.all([matrix?.close(), unlisted?.close()]);
    });

    test('a homeserver on a private address not allowed is refused, nothing sent', async () => {
      const { api } = await userWithToken(app.url, 'matrix-ssrf');
      const refused = await connectAccount(
        api,
        'matrix',
        unlisted.credentials('syt_any'),
        '!room:fake.matrix.test',
      );
      assert.equal(refused.status, 422, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'target_unreachable');
      assert.match(refused.body.detail, /ALLOW_PRIVATE_HOSTS/);
      assert.equal(unlisted.server.requests.length, 0);
    });

    test('connect by alias, publish now and scheduled; a bad token is credentials_invalid', async () => {
      const { api } = await userWithToken(app.url, 'matrix');
      const bad = await connectAccount(api, 'matrix', matrix.credentials('syt_wrong'), alias);
      assert.equal(bad.status, 422);
      assert.equal(bad.body.code, 'credentials_invalid');

      const connected = await connectAccount(api, 'matrix', matrix.credentials(token), alias);
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      assert.equal(connected.body.platformAccountId, roomId, 'the alias is resolved to the room id');
      assert.equal(connected.body.label, 'Announcements');
      assert.equal(connected.body.username, '@postwave:fake.matrix.test');
      assert.ok(!JSON.stringify(connected.body).includes(token));

      const now = await publishNow(api, {
        message: 'Hello\n\nhttps://example.com',
        accountIds: [connected.body.id],
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const event = matrix.events.find((e) => e.eventId === now.results[0].platformPostId);
      assert.equal(event?.content.body, 'Hello\n\nhttps://example.com');
      assert.equal(event?.content.format, 'org.matrix.custom.html');
      assert.match(now.results[0].url, /^https:\/\/matrix\.to\/#\//);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later on Matrix',
        accountIds: [connected.body.id],
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      assert.ok(matrix.events.some((e) => e.content.body === 'Later on Matrix'));

      const tooLong = await api.json('/api/v1/validation', {
        json: { message: 'a'.repeat(70_000), accountIds: [connected.body.id] },
      });
      assert.equal(tooLong.body.valid, false);
      assert.equal(tooLong.body.results[0].errors[0].code, 'text_too_long');
    });
  });
}
