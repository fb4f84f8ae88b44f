import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type AccountEntry, PublisherRegistry, platformModules } from '@postwave/shared';
import { type FakeTelegram, samplePng } from '@postwave/shared/testing';
import { type ChainPublisher, chainPublisher } from '../../shared/test/support/chain-publisher.ts';
import {
  expectProblem,
  fakeTelegram,
  startTestServer,
  type TestServer,
  telegramAccounts,
} from './helpers.ts';

/**
 * The composer fields (docs/composer-fields.md) on the self-hosted server, through HTTP: overrides, threads,
 * first comment and alt text. Telegram (the real publisher against its fake) shows what a platform without
 * first comments or alt text answers; a test-only platform (`chain`) records what the posting service hands a
 * publisher (reply targets, comments, alt text) without any platform's quirks.
 */
describe('composer fields (self-hosted)', () => {
  let telegram: FakeTelegram;
  let chain: ChainPublisher;
  let flat: ChainPublisher;
  let server: TestServer;

  const chainAccount: AccountEntry = {
    id: 'chain-1',
    platform: 'chain',
    platformAccountId: 'c1',
    credentials: {},
  };
  // A platform without threads (like Instagram): a thread reaches it as its first message only.
  const flatAccount: AccountEntry = {
    id: 'flat-1',
    platform: 'flat',
    platformAccountId: 'f1',
    credentials: {},
  };

  before(async () => {
    telegram = await fakeTelegram();
    chain = chainPublisher({ comments: true });
    flat = chainPublisher({ id: 'flat', features: { thread: false } });
    const env = { TELEGRAM_API_URL: telegram.url };
    const real = PublisherRegistry.fromEnv(env, platformModules);
    // The real platforms take their manifests' features; the test platform declares its own.
    const publishers = new PublisherRegistry(
      [...real.list(), chain.publisher, flat.publisher],
      [
        ['chain', chain.traits],
        ['flat', flat.traits],
      ],
    );
    server = await startTestServer({
      telegram,
      publishers,
      accounts: [...telegramAccounts, chainAccount, flatAccount],
    });
  });
  after(async () => {
    await server?.close();
    await telegram?.close();
  });

  async function upload(): Promise<Record<string, unknown>> {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(samplePng())], { type: 'image/png' }), 'photo.png');
    const response = await server.api('/api/v1/upload', { method: 'POST', body: form });
    assert.equal(response.status, 201);
    return ((await response.json()) as { media: Record<string, unknown> }).media;
  }

  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API under test, read field by field
  type Body = Record<string, any>;
  const post = async (json: Body) => {
    const response = await server.api('/api/v1/posts', { json: { postingMode: 'now', ...json } });
    return { status: response.status, body: (await response.json()) as Body };
  };

  it('validation reports each platform feature: first comment, alt text, thread parts, override keys', async () => {
    const media = await upload();
    const response = await server.api('/api/v1/validation', {
      json: {
        message: 'hello',
        accountIds: ['tg-main', 'chain-1'],
        media: [{ ...media, altText: 'x'.repeat(60) }],
        thread: [{ message: 'fine' }, { message: 'y'.repeat(5000) }],
        accountOptions: { 'tg-main': { firstComment: 'first!' } },
      },
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as Body;
    assert.equal(body.valid, false);
    const [tg, ch] = body.results;
    const codes = (issues: Body[]) => issues.map((i) => `${i.code}@${i.path}`);
    assert.ok(codes(tg.errors).includes('first_comment_unsupported@accountOptions.tg-main.firstComment'));
    assert.ok(
      codes(tg.errors).some((c: string) => c.endsWith('@thread[1].message')),
      JSON.stringify(tg.errors),
    );
    assert.deepEqual(codes(tg.warnings), ['alt_text_unsupported@media[0].altText']);
    assert.match(tg.warnings[0].message, /does not support alt text/);
    // firstComment is a string (contract E): another type is a malformed body, 400.
    for (const path of ['/api/v1/validation', '/api/v1/posts']) {
      const numeric = await server.api(path, {
        json: {
          message: 'x',
          accountIds: ['chain-1'],
          postingMode: 'now',
          accountOptions: { 'chain-1': { firstComment: 5 } },
        },
      });
      assert.equal(numeric.status, 400, path);
    }
    assert.ok(codes(ch.errors).includes('alt_text_too_long@media[0].altText'));

    const unknownKey = await server.api('/api/v1/validation', {
      json: { message: 'x', accountIds: ['tg-main'], overrides: { 'tg-news': { message: 'y' } } },
    });
    // Contract B: an invalid post is still 200 with valid: false; publishing it is 422 (below).
    assert.equal(unknownKey.status, 200);
    const refusal = (await unknownKey.json()) as Body;
    assert.equal(refusal.valid, false);
    assert.equal((refusal.errors as Body[])[0]!.code, 'override_unknown_account');
    const unknownOnPost = await server.api('/api/v1/posts', {
      json: { message: 'x', accountIds: ['tg-main'], postingMode: 'now', overrides: { other: {} } },
    });
    await expectProblem(unknownOnPost, 422, 'validation_failed');
  });

  it('publishes each account its own version', async () => {
    const res = await post({
      message: 'base text',
      accountIds: ['tg-main', 'tg-news'],
      overrides: { 'tg-news': { message: 'news version' } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const texts = new Map(telegram.sent.map((m) => [m.text, m.chatId]));
    assert.equal(texts.get('base text'), -1001);
    assert.equal(texts.get('news version'), -1002);
    assert.equal(telegram.sent.filter((m) => m.text === 'base text').length, 1);
  });

  it('publishes a thread part by part and lists every part in the result', async () => {
    const res = await post({
      message: 'tg one',
      accountIds: ['tg-main'],
      thread: [{ message: 'tg two' }, { message: 'tg three' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [result] = res.body.results;
    const sent = ['tg one', 'tg two', 'tg three'].map((text) => telegram.sent.find((m) => m.text === text)!);
    assert.deepEqual(
      result.parts.map((p: Body) => [p.index, p.status, p.platformPostId]),
      sent.map((m, i) => [i, 'posted', String(m.messageIds[0])]),
    );
    assert.equal(result.platformPostId, result.parts[0].platformPostId);
    assert.ok(
      result.parts.every((p: Body) => !('replyRef' in p)),
      'reply references stay on the server',
    );
  });

  it('a thread to a platform without threads: a warning, and only the first message goes there', async () => {
    const thread = [{ message: 'mixed two' }];
    const check = await server.api('/api/v1/validation', {
      json: { message: 'mixed one', accountIds: ['tg-main', 'flat-1'], thread },
    });
    const validation = (await check.json()) as Body;
    assert.equal(validation.valid, true, JSON.stringify(validation));
    const flatResult = validation.results.find((r: Body) => r.accountId === 'flat-1');
    assert.deepEqual(flatResult.warnings, [
      {
        code: 'thread_unsupported',
        message: 'Chain has no threads: only the first message is posted',
        path: 'thread',
      },
    ]);

    const res = await post({ message: 'mixed one', accountIds: ['tg-main', 'flat-1'], thread });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const byAccount = new Map(res.body.results.map((r: Body) => [r.accountId, r]));
    assert.equal((byAccount.get('tg-main') as Body).parts.length, 2);
    const onFlat = byAccount.get('flat-1') as Body;
    assert.equal(onFlat.status, 'posted');
    assert.equal(onFlat.parts, undefined);
    assert.deepEqual(
      flat.posted().map((c) => c.message),
      ['mixed one'],
    );
    assert.ok(telegram.sent.some((m) => m.text === 'mixed two'));
  });

  it('a failed later part keeps the earlier parts and says which part failed', async () => {
    const media = await upload();
    telegram.inject({
      method: 'sendPhoto',
      status: 400,
      json: { ok: false, error_code: 400, description: 'Bad Request: wrong file' },
    });
    const res = await post({
      message: 'fails at two',
      accountIds: ['tg-main'],
      thread: [{ message: 'two with photo', media }, { message: 'three never' }],
    });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    const [result] = res.body.results;
    assert.equal(result.status, 'failed');
    assert.match(result.error.message, /Thread part 1 of 2 failed/);
    assert.deepEqual(
      result.parts.map((p: Body) => p.status),
      ['posted', 'failed', 'pending'],
    );
    assert.ok(telegram.sent.some((m) => m.text === 'fails at two'));
    assert.ok(!telegram.sent.some((m) => m.text === 'three never'));
  });

  it('chains replies, posts the first comment and passes alt text through to the publisher', async () => {
    const media = await upload();
    const res = await post({
      message: 'chain one',
      accountIds: ['chain-1'],
      media: [{ ...media, altText: 'A test pattern' }],
      thread: [{ message: 'chain two' }],
      accountOptions: { 'chain-1': { firstComment: 'see comments' } },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [one, two, comment] = chain.posted();
    assert.equal(one!.message, 'chain one');
    assert.deepEqual(one!.media, [{ key: media.key, altText: 'A test pattern' }]);
    assert.deepEqual(two!.replyTo?.parent, one!.postId);
    assert.equal(comment!.kind, 'comment');
    assert.equal(comment!.message, 'see comments');
    const [result] = res.body.results;
    assert.equal(result.firstComment.status, 'posted');
    assert.equal(result.firstComment.platformPostId, comment!.postId);
    assert.equal(result.parts.length, 2);
  });

  it('documents the fields in /openapi.json', async () => {
    const doc = (await (await server.api('/openapi.json')).json()) as Body;
    const schemas = doc.components.schemas;
    assert.ok(schemas.PostRequest.properties.overrides);
    assert.ok(schemas.PostRequest.properties.thread);
    assert.ok(schemas.MediaReference.properties.altText);
    assert.ok(schemas.TargetResult.properties.parts);
    assert.match(doc.paths['/api/v1/posts'].post.description, /thread_unsupported/);
    assert.match(doc.paths['/api/v1/posts'].post.description, /only the first message/);
  });
});
