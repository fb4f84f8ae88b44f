import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeGoogleBusiness, startFakeGoogleBusiness } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '#test/helpers/app.ts';
import { signUp } from '#test/helpers/client.ts';
import { backends } from '#test/helpers/databases.ts';
import {
  accountsOf,
  connectByOAuth,
  pick,
  pickerChoices,
  publishNow,
  scheduleAndDispatch,
} from './chat-platforms.helpers.ts';
import { uploadPng } from './support.ts';

/*
 * Google Business Profile through the Scheduler over HTTP: Google OAuth (the YouTube client) with
 * the locations picker, showWhen option fields (event and offer), a refreshed and rotated Google
 * token serving the second location of the login, publishing now and on schedule, and a revoked
 * grant marking every location needs_reconnect.
 */
for (const backend of backends()) {
  describe(`Google Business Profile through the Scheduler (${backend})`, () => {
    let google: FakeGoogleBusiness;
    let app: RunningApp;
    before(async () => {
      google = await startFakeGoogleBusiness();
      app = await startApp(backend, google.env());
    });
    after(async () => {
      await app?.stop();
      await google?.close();
    });

    async function connectBoth(name: string) {
      const { client } = await signUp(app.url, name);
      const landing = await connectByOAuth(client, 'google_business');
      const { html, ids } = await pickerChoices(client, landing);
      assert.deepEqual(ids.sort(), ['accounts/1100/locations/9001', 'accounts/2200/locations/9002']);
      assert.match(html, /Corner Bakery Harbour/);
      assert.doesNotMatch(html, /1\/\/|ya29\./, 'no token on the page');
      await pick(client, 'google_business', landing, ids);
      const accounts = await accountsOf(client, 'google_business');
      const main = accounts.find((a) => a.platformAccountId.endsWith('/9001'));
      const harbour = accounts.find((a) => a.platformAccountId.endsWith('/9002'));
      return { client, main, harbour };
    }

    test('connect two locations, showWhen fields, publish now and scheduled', async () => {
      const { client, main, harbour } = await connectBoth('gbp');
      assert.equal(main.label, 'Corner Bakery Main St');

      const check = async (options: Record<string, unknown>) => {
        const res = await client.json('/api/v1/validation', {
          json: { message: 'Hello', accountIds: [main.id], accountOptions: { [main.id]: options } },
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.results[0].errors
          .map((e: { code: string; path: string }) => `${e.code} ${e.path}`)
          .sort();
      };
      assert.deepEqual(await check({ topicType: 'EVENT' }), [
        `option_required accountOptions.${main.id}.event.end`,
        `option_required accountOptions.${main.id}.event.start`,
        `option_required accountOptions.${main.id}.event.title`,
      ]);
      assert.deepEqual(
        await check({ topicType: 'STANDARD', offer: { couponCode: 'x'.repeat(99) } }),
        [],
        'hidden',
      );

      const media = await uploadPng(client);
      const now = await publishNow(client, {
        message: 'Fresh bread',
        media: [media],
        accountIds: [main.id],
        accountOptions: {
          [main.id]: {
            topicType: 'STANDARD',
            event: { title: 'stale, hidden' },
            callToAction: { actionType: 'LEARN_MORE', url: 'https://bakery.example' },
          },
        },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const update = google.posts.find((p) => p.name === now.results[0].platformPostId)!;
      assert.equal(update.body.event, undefined, 'a hidden field is not sent');
      assert.deepEqual(update.body.callToAction, { actionType: 'LEARN_MORE', url: 'https://bakery.example' });
      assert.equal((update.body.media as { mediaFormat: string }[])[0]!.mediaFormat, 'PHOTO');

      const later = await scheduleAndDispatch(app, client, {
        message: 'Tasting night',
        accountIds: [harbour.id],
        accountOptions: {
          [harbour.id]: {
            topicType: 'EVENT',
            event: { title: 'Tasting', start: '2026-12-01T18:00:00.000Z', end: '2026-12-01T21:00:00.000Z' },
          },
        },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later.results));
      const event = google.posts.find((p) => p.name === later.results[0].platformPostId)!;
      assert.equal(event.location, 'accounts/2200/locations/9002');
      assert.equal((event.body.event as { title: string }).title, 'Tasting');
    });

    test('a refreshed, rotated token serves the second location; a revoked grant marks both', async () => {
      const { client, main, harbour } = await connectBoth('gbp-grant');
      google.rotateRefreshTokens = true;
      try {
        google.expireAccessTokens();
        const refreshesBefore = google.refreshes;
        const first = await publishNow(client, { message: 'First location', accountIds: [main.id] });
        assert.equal(first.status, 'posted', JSON.stringify(first.results));
        assert.equal(google.refreshes, refreshesBefore + 1);
        // The second location publishes with the access token the first one obtained…
        const second = await publishNow(client, { message: 'Second location', accountIds: [harbour.id] });
        assert.equal(second.status, 'posted', JSON.stringify(second.results));
        assert.equal(google.refreshes, refreshesBefore + 1, 'no second refresh');
        // …and, once that expires, refreshes with the rotated refresh token (the old one is dead).
        google.expireAccessTokens();
        const third = await publishNow(client, {
          message: 'Second location again',
          accountIds: [harbour.id],
        });
        assert.equal(third.status, 'posted', JSON.stringify(third.results));
        assert.equal(google.refreshes, refreshesBefore + 2);
      } finally {
        google.rotateRefreshTokens = false;
      }

      google.revokeAll();
      const failed = await publishNow(client, { message: 'Revoked', accountIds: [main.id] });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.results[0].error.code, 'needs_reconnect');
      for (const account of [main, harbour])
        assert.equal((await client.json(`/api/v1/accounts/${account.id}`)).body.status, 'needs_reconnect');
    });
  });
}
