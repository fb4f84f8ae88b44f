import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeMedium, startFakeMedium } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { publishNow } from './chat-platforms.helpers.ts';
import { scheduleAndDispatch, uploadPng } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Medium over HTTP (${backend})`, () => {
    let medium: FakeMedium;
    let app: RunningApp;
    before(async () => {
      medium = await startFakeMedium({ 'med-token': { username: 'alice', name: 'Alice' } });
      // MEDIUM_API_URL is the operator's: trusted, so a loopback fake needs no ALLOW_PRIVATE_HOSTS.
      app = await startApp(backend, medium.env());
    });
    after(async () => {
      await app?.stop();
      await medium?.close();
    });

    test('connects with an integration token, publishes now with an image, and a scheduled draft', async () => {
      const { api } = await userWithToken(app.url, 'medium');
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'medium', credentials: { integrationToken: 'med-token' } },
      });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      assert.deepEqual(
        [connected.body.platformAccountId, connected.body.label],
        [medium.userId('med-token'), 'Alice'],
      );
      assert.ok(!JSON.stringify(await api.json('/api/v1/accounts')).includes('med-token'));
      const wrong = await api.json('/api/v1/accounts', {
        json: { platform: 'medium', credentials: { integrationToken: 'nope' } },
      });
      assert.equal(wrong.body.code, 'credentials_invalid');

      const account = connected.body.id;
      const media = await uploadPng(api);
      const validation = await api.json('/api/v1/validation', {
        json: { message: 'T', accountIds: [account], media: [media] },
      });
      // Medium receives the image itself: a loopback media URL is no problem.
      assert.deepEqual(validation.body.results[0].warnings, []);
      const now = await publishNow(api, {
        message: 'Shipping notes\n\nBody in *Markdown*.',
        accountIds: [account],
        media: [media],
        accountOptions: { [account]: { tags: ['release'], canonicalUrl: 'https://blog.example/notes' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const story = medium.posts.at(-1)!;
      assert.deepEqual(
        [story.title, story.tags, story.canonicalUrl, story.publishStatus],
        ['Shipping notes', ['release'], 'https://blog.example/notes', 'public'],
      );
      assert.match(story.content, /Body in \*Markdown\*\./);
      assert.ok(story.content.includes(medium.images.at(-1)!.url));
      assert.equal(now.results[0].platformPostId, story.id);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later story\n\nx',
        accountIds: [account],
        accountOptions: { [account]: { publishStatus: 'draft' } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.deepEqual(
        [medium.posts.at(-1)!.title, medium.posts.at(-1)!.publishStatus],
        ['Later story', 'draft'],
      );
    });
  });
}
