import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FakeMastodon, samplePng, startFakeMastodon } from '@postwave/shared/testing';
import { dispatchSecret } from '../helpers/app.ts';
import { userWithToken } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';
import { connectTelegram, startTelegramApp, type TelegramApp } from '../helpers/fixtures.ts';
import { bots } from '../helpers/telegram-bots.ts';

/**
 * The composer fields (docs/composer-fields.md) on the Scheduler, through HTTP: per-account overrides,
 * threads (with a failed part and a retry that continues without reposting), first comment and alt text, each
 * validated per platform feature. Telegram (threads; no first comment, no alt text) and Mastodon (threads,
 * first comment, alt text) are the real publishers against their fakes.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test, read field by field
type Body = Record<string, any>;

for (const backend of backends()) {
  describe(`composer fields (${backend})`, () => {
    let env: TelegramApp;
    let mastodon: FakeMastodon;

    before(async () => {
      mastodon = await startFakeMastodon({ tokens: { 'mastodon-token': { username: 'poster' } } });
      // The Mastodon fake is on loopback, a host users may not choose unless the operator allows it.
      env = await startTelegramApp(backend, { ALLOW_PRIVATE_HOSTS: new URL(mastodon.url).host });
    });
    after(async () => {
      await env?.stop();
      await mastodon?.close();
    });

    async function setup(name: string) {
      const user = await userWithToken(env.app.url, name);
      const news = await connectTelegram(user.api, '@news', bots.main);
      const updates = await connectTelegram(user.api, '@updates', bots.second);
      const toot = await user.api.json('/api/v1/accounts', {
        json: {
          platform: 'mastodon',
          credentials: { instanceUrl: mastodon.url, accessToken: 'mastodon-token' },
        },
      });
      assert.equal(toot.status, 201, JSON.stringify(toot.body));
      const upload = async () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'photo.png');
        const res = await user.api.json('/api/v1/upload', { method: 'POST', body: form });
        // 200: the workspace already had these bytes (the media library answers that media).
        assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
        return res.body.media as Body;
      };
      return { ...user, news, updates, toot: toot.body.id as string, upload };
    }

    const sent = (text: string) => env.telegram.sent.filter((m) => m.text === text || m.caption === text);

    test('validation answers per platform feature: first comment, alt text, thread parts, override keys', async () => {
      const { api, news, toot, upload } = await setup('validator');
      const media = await upload();
      const res = await api.json('/api/v1/validation', {
        json: {
          message: 'hello',
          accountIds: [news, toot],
          media: [{ ...media, altText: 'a'.repeat(1501) }],
          thread: [{ message: 'fine' }, { message: 'y'.repeat(5000) }],
          accountOptions: { [news]: { firstComment: 'first!' }, [toot]: { firstComment: 'ok here' } },
        },
      });
      assert.equal(res.status, 200);
      const [tg, md] = res.body.results as Body[];
      const codes = (issues: Body[]) => issues.map((i) => `${i.code}@${i.path}`);
      assert.ok(codes(tg!.errors).includes(`first_comment_unsupported@accountOptions.${news}.firstComment`));
      assert.ok(codes(tg!.errors).some((c) => c.endsWith('@thread[1].message')));
      assert.deepEqual(codes(tg!.warnings), ['alt_text_unsupported@media[0].altText']);
      assert.ok(codes(md!.errors).includes('alt_text_too_long@media[0].altText'), JSON.stringify(md!.errors));
      assert.ok(!codes(md!.errors).some((c) => c.startsWith('first_comment')));

      const refused = await api.json('/api/v1/posts', {
        json: {
          message: 'x',
          accountIds: [news],
          postingMode: 'now',
          accountOptions: { [news]: { firstComment: 'no comments on telegram' } },
        },
      });
      assert.equal(refused.status, 422);
      assert.equal(refused.body.errors[0].code, 'first_comment_unsupported');
      const badKey = await api.json('/api/v1/posts', {
        json: {
          message: 'x',
          accountIds: [news],
          postingMode: 'draft',
          overrides: { [toot]: { message: 'y' } },
        },
      });
      assert.equal(badKey.status, 422);
      assert.equal(badKey.body.errors[0].code, 'override_unknown_account');
      // firstComment is a string (contract E): another type is 400, a draft's included (it was stored).
      for (const postingMode of ['draft', 'now']) {
        const numeric = await api.json('/api/v1/posts', {
          json: {
            message: 'x',
            accountIds: [toot],
            postingMode,
            accountOptions: { [toot]: { firstComment: 5 } },
          },
        });
        assert.equal(numeric.status, 400, `${postingMode}: ${JSON.stringify(numeric.body)}`);
        assert.equal(numeric.body.code, 'invalid_request');
      }
      assert.equal(sent('x').length, 0);
    });

    test('overrides give each account its own version; the post stores and returns them', async () => {
      const { api, news, updates } = await setup('overrider');
      const res = await api.json('/api/v1/posts', {
        json: {
          message: 'base version',
          accountIds: [news, updates],
          postingMode: 'now',
          overrides: { [updates]: { message: 'updates version' } },
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, 'posted');
      assert.deepEqual(res.body.overrides, { [updates]: { message: 'updates version' } });
      assert.deepEqual(
        sent('base version').map((m) => m.chatId),
        [-1001],
      );
      assert.deepEqual(
        sent('updates version').map((m) => m.chatId),
        [-1002],
      );
      assert.equal(res.body.results[0].parts, undefined, 'no parts without a thread');
    });

    test('PATCH sets overrides, thread and alt text; dropping an account drops its override', async () => {
      const { api, news, updates, upload } = await setup('patcher');
      const media = await upload();
      const draft = await api.json('/api/v1/posts', {
        json: { message: 'draft', accountIds: [news, updates], postingMode: 'draft' },
      });
      assert.equal(draft.status, 201);
      const patched = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: {
          overrides: { [updates]: { message: 'short' } },
          thread: [{ message: 'part two', media: [{ ...media, altText: 'A grey square' }] }],
          media: [{ ...media, altText: 'The first image' }],
        },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.overrides, { [updates]: { message: 'short' } });
      assert.equal(patched.body.thread[0].message, 'part two');
      assert.equal(patched.body.thread[0].media[0].altText, 'A grey square');
      assert.equal(patched.body.media[0].altText, 'The first image');
      const badKey = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { accountIds: [news], overrides: { [updates]: { message: 'gone' } } },
      });
      assert.equal(badKey.status, 422);
      const dropped = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { accountIds: [news] },
      });
      assert.deepEqual(dropped.body.overrides, {});
      const tooLong = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { thread: Array.from({ length: 26 }, () => ({ message: 'p' })) },
      });
      assert.equal(tooLong.status, 422);
      assert.equal(tooLong.body.errors[0].path, 'thread');
      const notAList = await api.json(`/api/v1/posts/${draft.body.id}`, {
        method: 'PATCH',
        json: { thread: 'p' },
      });
      assert.equal(notAList.status, 400);
    });

    test('a thread is published part by part; the result lists each part', async () => {
      const { api, news } = await setup('threader');
      const res = await api.json('/api/v1/posts', {
        json: {
          message: 'thread one',
          accountIds: [news],
          postingMode: 'now',
          thread: [{ message: 'thread two' }, { message: 'thread three' }],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, 'posted');
      const messages = ['thread one', 'thread two', 'thread three'].map((t) => sent(t));
      assert.ok(messages.every((m) => m.length === 1));
      const [result] = res.body.results;
      assert.deepEqual(
        result.parts.map((p: Body) => [p.index, p.status, p.platformPostId]),
        messages.map((m, i) => [i, 'posted', String(m[0]!.messageIds[0])]),
      );
      assert.ok(result.parts.every((p: Body) => !('replyRef' in p)));
      const got = await api.json(`/api/v1/posts/${res.body.id}`);
      assert.deepEqual(got.body.results, res.body.results);
    });

    test('a failed later part keeps the earlier ones; a retry continues from it and reposts nothing', async () => {
      const { api, news, upload } = await setup('retrier');
      const media = await upload();
      env.telegram.inject({
        method: 'sendPhoto',
        status: 400,
        json: { ok: false, error_code: 400, description: 'Bad Request: wrong file' },
      });
      const res = await api.json('/api/v1/posts', {
        json: {
          message: 'retry one',
          accountIds: [news],
          postingMode: 'now',
          thread: [{ message: 'retry two', media }, { message: 'retry three' }],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, 'failed');
      const [failed] = res.body.results;
      assert.equal(failed.status, 'failed');
      assert.match(failed.error.message, /Thread part 1 of 2 failed/);
      assert.deepEqual(
        failed.parts.map((p: Body) => p.status),
        ['posted', 'failed', 'pending'],
      );
      assert.equal(failed.parts[1].error.code, failed.error.code);
      assert.equal(sent('retry one').length, 1);
      assert.equal(sent('retry three').length, 0);

      const retried = await api.json(`/api/v1/posts/${res.body.id}`, { json: { postingMode: 'now' } });
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.status, 'posted');
      const [result] = retried.body.results;
      assert.deepEqual(
        result.parts.map((p: Body) => p.status),
        ['posted', 'posted', 'posted'],
      );
      assert.equal(result.parts[0].platformPostId, failed.parts[0].platformPostId, 'part 0 is the same post');
      assert.equal(sent('retry one').length, 1, 'the posted part is not sent again');
      assert.equal(sent('retry two').length, 1);
      assert.equal(sent('retry three').length, 1);
    });

    test('a scheduled thread is dispatched the same way', async () => {
      const { api, news } = await setup('scheduler');
      const when = new Date(Date.now() + 1500).toISOString();
      const res = await api.json('/api/v1/posts', {
        json: {
          message: 'later one',
          accountIds: [news],
          postingMode: 'schedule',
          scheduledAt: when,
          thread: [{ message: 'later two' }],
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(res.body.thread, [{ message: 'later two', media: [] }]);
      await new Promise((r) => setTimeout(r, 1700));
      const dispatched = await fetch(`${env.app.url}/api/internal/scheduled-posts/dispatch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${dispatchSecret}` },
      });
      assert.equal(dispatched.status, 200);
      const got = await api.json(`/api/v1/posts/${res.body.id}`);
      assert.equal(got.body.status, 'posted');
      assert.deepEqual(
        got.body.results[0].parts.map((p: Body) => p.status),
        ['posted', 'posted'],
      );
      assert.equal(sent('later two').length, 1);
    });

    test('the first comment is posted right after the post, and alt text is stored with the media', async () => {
      const { api, toot, upload } = await setup('commenter');
      const media = await upload();
      const res = await api.json('/api/v1/posts', {
        json: {
          message: 'toot with comment',
          accountIds: [toot],
          postingMode: 'now',
          media: [{ ...media, altText: 'A small test image' }],
          accountOptions: { [toot]: { firstComment: 'the first comment' } },
        },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, 'posted');
      const [result] = res.body.results;
      assert.equal(result.firstComment.status, 'posted');
      const texts = mastodon.statuses.map((s) => s.text);
      const post = texts.indexOf('toot with comment');
      const comment = texts.indexOf('the first comment');
      assert.ok(post >= 0 && comment > post, 'the comment follows the post');
      assert.equal(result.firstComment.platformPostId, mastodon.statuses[comment]!.id);
      assert.equal(res.body.media[0].altText, 'A small test image');
    });

    test('/openapi.json documents the fields', async () => {
      const doc = (await (await fetch(`${env.app.url}/openapi.json`)).json()) as Body;
      const schemas = doc.components.schemas;
      // The Scheduler's post request (the SDK's plus templateId and recycle), by the $ref the route uses.
      const ref: string = doc.paths['/api/v1/posts'].post.requestBody.content['application/json'].schema.$ref;
      const request = schemas[ref.split('/').at(-1)!];
      assert.ok(request.properties.overrides);
      assert.ok(request.properties.thread);
      assert.ok(request.properties.templateId);
      assert.ok(request.properties.recycle);
      assert.ok(schemas.PostPatchRequest.properties.thread);
      assert.ok(schemas.Post.properties.overrides);
      assert.ok(schemas.TargetPart);
      assert.match(doc.paths['/api/v1/posts'].post.description, /first_comment_unsupported/);
    });
  });
}
