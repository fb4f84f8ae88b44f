import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeDevto, startFakeDevto } from '@postwave/shared/testing';
import { type RunningApp, startApp } from '../../helpers/app.ts';
import { userWithToken } from '../../helpers/client.ts';
import { backends } from '../../helpers/databases.ts';
import { publishNow } from './chat-platforms.helpers.ts';
import { scheduleAndDispatch, uploadPng } from './support.ts';

for (const backend of backends()) {
  describe(`Scheduler: Dev.to over HTTP (${backend})`, () => {
    let devto: FakeDevto;
    let app: RunningApp;
    before(async () => {
      devto = await startFakeDevto({ keys: { 'dev-key': { username: 'alice', name: 'Alice' } } });
      // DEVTO_API_URL is the operator's: trusted, so a loopback fake needs no ALLOW_PRIVATE_HOSTS.
      app = await startApp(backend, devto.env());
    });
    after(async () => {
      await app?.stop();
      await devto?.close();
    });

    test('connects with an API key, publishes now with a cover image, and a scheduled article', async () => {
      const { api } = await userWithToken(app.url, 'dev');
      const connected = await api.json('/api/v1/accounts', {
        json: { platform: 'devto', credentials: { apiKey: 'dev-key' } },
      });
      assert.equal(connected.status, 201, JSON.stringify(connected.body));
      assert.deepEqual([connected.body.platformAccountId, connected.body.label], ['alice', 'Alice']);
      const wrong = await api.json('/api/v1/accounts', {
        json: { platform: 'devto', credentials: { apiKey: 'nope' } },
      });
      assert.equal(wrong.body.code, 'credentials_invalid');

      const account = connected.body.id;
      const media = await uploadPng(api);
      const validation = await api.json('/api/v1/validation', {
        json: { message: 'T', accountIds: [account], media: [media] },
      });
      assert.deepEqual(
        validation.body.results[0].warnings.map((w: { code: string }) => w.code),
        ['media_url_not_public'],
      );
      const now = await publishNow(api, {
        message: 'Shipping notes\n\nBody in *Markdown*.',
        accountIds: [account],
        media: [media],
        accountOptions: { [account]: { tags: ['release'], canonicalUrl: 'https://blog.example/notes' } },
      });
      assert.equal(now.status, 'posted', JSON.stringify(now.results));
      const article = devto.articles.at(-1)!;
      assert.deepEqual(
        [article.title, article.bodyMarkdown, article.tags, article.canonicalUrl],
        ['Shipping notes', 'Body in *Markdown*.', ['release'], 'https://blog.example/notes'],
      );
      assert.equal(article.mainImage, media.url);

      const later = await scheduleAndDispatch(app, api, {
        message: 'Later article\n\nx',
        accountIds: [account],
        accountOptions: { [account]: { published: false } },
      });
      assert.equal(later.status, 'posted', JSON.stringify(later));
      assert.deepEqual(
        [devto.articles.at(-1)!.title, devto.articles.at(-1)!.published],
        ['Later article', false],
      );
    });
  });
}
