import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PublisherRegistry } from '../../src/platforms/registry.ts';
import type { PlatformAccount } from '../../src/platforms/types.ts';
import { ProblemError } from '../../src/problems.ts';
import { parsePostRequest } from '../../src/publish/parse-request.ts';
import {
  type PostedPart,
  type PostInput,
  PostingService,
  type PublishHooks,
  publicResult,
} from '../../src/publish/posting.ts';
import { MemoryStorage } from '../platforms/telegram/memory-storage.ts';
import { type ChainPublisherOptions, chainPublisher, rejected } from '../support/chain-publisher.ts';
import { fastRetries } from '../support/platform-testing.ts';

const account = (id: string, platform = 'chain'): PlatformAccount => ({
  id,
  platform,
  platformAccountId: id,
  credentials: {},
});

function setup(options: ChainPublisherOptions = {}, others: ChainPublisherOptions[] = []) {
  const chains = [chainPublisher(options), ...others.map((o) => chainPublisher(o))];
  const storage = new MemoryStorage();
  storage.add('img-1.png', 'image/png', Buffer.from('png'));
  storage.add('img-2.png', 'image/png', Buffer.from('png2'));
  const service = new PostingService({
    publishers: new PublisherRegistry(
      chains.map((c) => c.publisher),
      chains.map((c) => [c.publisher.id, c.traits]),
    ),
    storage,
  });
  const accounts = new Map<string, PlatformAccount>([
    ['a', account('a')],
    ['b', account('b')],
    ...others.map((o) => [`on-${o.id}`, account(`on-${o.id}`, o.id)] as [string, PlatformAccount]),
  ]);
  const lookup = (id: string) => accounts.get(id);
  const chain = chains[0]!;
  return {
    chain,
    chains,
    service,
    prepare: (post: Partial<PostInput>) =>
      service.prepare({ message: 'hello', accountIds: ['a'], media: [], ...post }, lookup),
    publish: async (post: Partial<PostInput>, hooks: PublishHooks = {}) => {
      const prepared = await service.prepare(
        { message: 'hello', accountIds: ['a'], media: [], ...post },
        lookup,
      );
      assert.ok(prepared.targets, JSON.stringify(prepared.validation));
      return service.publish(prepared, { idempotencyKey: 'post-1', retryPolicy: fastRetries(), ...hooks });
    },
  };
}

const thread = (...messages: string[]) => messages.map((message) => ({ message, media: [] }));

describe('per-account overrides', () => {
  it("publishes each account's own version and validates it with that account's rules", async () => {
    const { chain, publish, prepare } = setup();
    const results = await publish({
      accountIds: ['a', 'b'],
      media: [{ key: 'img-1.png' }],
      overrides: { b: { message: 'for b only', media: [{ key: 'img-2.png', altText: 'two' }] } },
    });
    assert.deepEqual(
      results.map((r) => r.status),
      ['posted', 'posted'],
    );
    const byText = new Map(chain.posted().map((c) => [c.message, c]));
    assert.deepEqual(byText.get('hello')?.media, [{ key: 'img-1.png' }]);
    assert.deepEqual(byText.get('for b only')?.media, [{ key: 'img-2.png', altText: 'two' }]);

    const tooLong = await prepare({ accountIds: ['a', 'b'], overrides: { b: { message: 'x'.repeat(101) } } });
    assert.equal(tooLong.validation.valid, false);
    const [a, b] = tooLong.validation.results;
    assert.equal(a!.valid, true);
    assert.deepEqual(
      b!.errors.map((e) => [e.code, e.path]),
      [['message_too_long', 'overrides.b.message']],
    );
  });

  it('refuses override keys that are not among accountIds with 422', () => {
    assert.throws(
      () =>
        parsePostRequest({
          message: 'x',
          accountIds: ['a'],
          postingMode: 'now',
          overrides: { zzz: { message: 'y' } },
        }),
      (error: unknown) =>
        error instanceof ProblemError &&
        error.status === 422 &&
        error.problem.errors?.[0]?.code === 'override_unknown_account',
    );
  });

  it('an override with unknown media is an error of that account only', async () => {
    const { prepare } = setup();
    const prepared = await prepare({
      accountIds: ['a', 'b'],
      overrides: { b: { media: [{ key: 'missing.png' }] } },
    });
    const [a, b] = prepared.validation.results;
    assert.equal(a!.valid, true);
    assert.deepEqual(
      b!.errors.map((e) => [e.code, e.path]),
      [['media_not_found', 'overrides.b.media[0]']],
    );
  });
});

describe('threads', () => {
  it('publishes the parts as a reply chain with a key per part, and lists them in the result', async () => {
    const { chain, publish } = setup();
    const [result] = await publish({ message: 'one', thread: thread('two', 'three') });
    assert.equal(result!.status, 'posted');
    const [one, two, three] = chain.posted();
    assert.deepEqual(
      chain.posted().map((c) => c.message),
      ['one', 'two', 'three'],
    );
    assert.equal(one!.replyTo, undefined);
    assert.deepEqual(two!.replyTo, {
      parent: one!.postId,
      root: one!.postId,
      parentRef: `ref:${one!.postId}`,
    });
    assert.deepEqual(three!.replyTo, {
      parent: two!.postId,
      root: one!.postId,
      parentRef: `ref:${two!.postId}`,
    });
    assert.deepEqual(
      chain.posted().map((c) => c.idempotencyKey),
      ['post-1:a', 'post-1:a:part:1', 'post-1:a:part:2'],
    );
    assert.equal(result!.platformPostId, one!.postId);
    assert.deepEqual(
      publicResult(result!).parts,
      [one, two, three].map((c, index) => ({
        index,
        status: 'posted',
        platformPostId: c!.postId,
        url: `https://chain.test/${c!.postId}`,
      })),
    );
    assert.equal(
      result!.parts?.[0]?.replyRef,
      `ref:${one!.postId}`,
      'reply references are kept for the caller',
    );
  });

  it('a failed later part keeps the earlier ones; a retry continues from it without reposting', async () => {
    let failing = true;
    const { chain, publish } = setup({
      failOn: (call) => (failing && call.message === 'three' ? rejected('no') : undefined),
    });
    const post = { message: 'one', thread: thread('two', 'three', 'four') };
    const recorded: { accountId: string; step: unknown; next: unknown }[] = [];
    const [failed] = await publish(post, {
      onStepPosted: async (accountId, posted, next) => {
        recorded.push({ accountId, step: posted.step, next: next.step });
        return `stored:${next.step}`;
      },
    });
    assert.equal(failed!.status, 'failed');
    assert.equal(failed!.error?.code, 'content_rejected');
    assert.match(failed!.error!.message, /Thread part 2 of 3 failed/);
    assert.deepEqual(
      failed!.parts!.map((p) => p.status),
      ['posted', 'posted', 'failed', 'pending'],
    );
    assert.deepEqual(
      recorded.map((r) => [r.step, r.next]),
      [
        [0, 1],
        [1, 2],
      ],
    );
    // Each step after the first is sent with the handle the caller stored for it.
    assert.equal(chain.calls.find((c) => c.message === 'three')?.dedupeHandle, 'stored:2');

    failing = false;
    const parts: PostedPart[] = failed!.parts!.filter((p) => p.status === 'posted') as PostedPart[];
    const [retried] = await publish(post, {
      intents: new Map([['a', { dedupeHandle: 'stored:2', parts }]]),
    });
    assert.equal(retried!.status, 'posted');
    assert.deepEqual(
      chain.posted().map((c) => c.message),
      ['one', 'two', 'three', 'four'],
      'no part is posted twice',
    );
    const three = chain.posted()[2]!;
    assert.equal(three.dedupeHandle, 'stored:2', 'the retried part keeps its stored handle');
    assert.equal(three.idempotencyKey, 'post-1:a:part:2');
    assert.deepEqual(three.replyTo, {
      parent: parts[1]!.platformPostId,
      root: parts[0]!.platformPostId,
      parentRef: parts[1]!.replyRef,
    });
    assert.deepEqual(
      retried!.parts!.map((p) => [p.index, p.status, p.platformPostId]),
      chain.posted().map((c, i) => [i, 'posted', c.postId]),
    );
  });

  it('validates every part with the platform rules; a platform without threads is a warning', async () => {
    const { prepare } = setup({}, [{ id: 'flat', features: { thread: false } }]);
    const prepared = await prepare({
      accountIds: ['a', 'on-flat'],
      thread: [
        { message: 'x'.repeat(101), media: [] },
        { message: 'fine', media: [{ key: 'nope.png' }] },
      ],
    });
    const [a, flat] = prepared.validation.results;
    assert.deepEqual(
      a!.errors.map((e) => [e.code, e.path]),
      [
        ['media_not_found', 'thread[1].media[0]'],
        ['message_too_long', 'thread[0].message'],
      ],
    );
    assert.ok(!flat!.errors.some((e) => e.code === 'thread_unsupported'));
    assert.deepEqual(
      flat!.warnings.filter((w) => w.code === 'thread_unsupported'),
      [
        {
          code: 'thread_unsupported',
          message: 'Chain has no threads: only the first message is posted',
          path: 'thread',
        },
      ],
    );
    assert.ok(
      !flat!.errors.some((e) => e.code === 'message_too_long'),
      'parts that are not posted on a platform are not checked against its rules',
    );
  });

  it('publishes only the first message where the platform has no threads, with no parts', async () => {
    const { chains, publish } = setup({}, [{ id: 'flat', features: { thread: false } }]);
    const results = await publish({
      message: 'one',
      accountIds: ['a', 'on-flat'],
      thread: thread('two', 'three'),
    });
    const [onChain, onFlat] = results;
    assert.deepEqual(
      results.map((r) => r.status),
      ['posted', 'posted'],
    );
    assert.equal(publicResult(onChain!).parts?.length, 3);
    assert.deepEqual(
      chains[1]!.posted().map((c) => [c.message, c.replyTo]),
      [['one', undefined]],
    );
    assert.equal(publicResult(onFlat!).parts, undefined);
    assert.equal(onFlat!.platformPostId, chains[1]!.posted()[0]!.postId);
  });

  it('is a warning, not an error, also when no target has threads', async () => {
    const { prepare } = setup({ features: { thread: false } });
    const prepared = await prepare({ thread: thread('two') });
    assert.equal(prepared.validation.valid, true);
    assert.deepEqual(
      prepared.validation.results[0]!.warnings.map((w) => w.code),
      ['thread_unsupported'],
    );
    assert.deepEqual(prepared.targets?.[0]?.thread, []);
  });

  it('refuses more than 25 parts (422: the parts are well formed, there are too many)', () => {
    assert.throws(
      () =>
        parsePostRequest({
          message: 'x',
          accountIds: ['a'],
          postingMode: 'now',
          thread: Array.from({ length: 26 }, () => ({ message: 'p' })),
        }),
      (error: unknown) =>
        error instanceof ProblemError && error.status === 422 && error.problem.errors?.[0]?.path === 'thread',
    );
  });
});

describe('first comment', () => {
  it('is posted as a comment where the platform has comments', async () => {
    const { chain, publish } = setup({ comments: true });
    const [result] = await publish({ accountOptions: { a: { firstComment: 'link in here', tone: 'x' } } });
    assert.equal(result!.status, 'posted');
    const [post, comment] = chain.posted();
    assert.equal(comment!.kind, 'comment');
    assert.equal(comment!.message, 'link in here');
    assert.equal(comment!.replyTo?.parent, post!.postId);
    assert.equal(comment!.idempotencyKey, 'post-1:a:comment');
    assert.deepEqual(publicResult(result!).firstComment, {
      status: 'posted',
      platformPostId: comment!.postId,
      url: `https://chain.test/${comment!.postId}`,
    });
    assert.equal(result!.parts, undefined, 'no parts without a thread');
  });

  it('is a reply to the first message elsewhere, after the thread', async () => {
    const { chain, publish } = setup();
    await publish({ message: 'one', thread: thread('two'), accountOptions: { a: { firstComment: 'c' } } });
    const [one, , comment] = chain.posted();
    assert.equal(comment!.kind, 'publish');
    assert.deepEqual(comment!.replyTo, {
      parent: one!.postId,
      root: one!.postId,
      parentRef: `ref:${one!.postId}`,
    });
  });

  it('a failed comment fails the target; a retry posts only the comment', async () => {
    let failing = true;
    const { chain, publish } = setup({
      comments: true,
      failOn: (call) => (failing && call.kind === 'comment' ? rejected() : undefined),
    });
    const post = { accountOptions: { a: { firstComment: 'c' } } };
    const [failed] = await publish(post);
    assert.equal(failed!.status, 'failed');
    assert.match(failed!.error!.message, /first comment failed/);
    assert.equal(failed!.firstComment?.status, 'failed');
    failing = false;
    const first = chain.posted()[0]!;
    const [retried] = await publish(post, {
      intents: new Map([
        ['a', { parts: [{ index: 0, platformPostId: first.postId!, replyRef: `ref:${first.postId}` }] }],
      ]),
    });
    assert.equal(retried!.status, 'posted');
    assert.deepEqual(
      chain.posted().map((c) => c.kind),
      ['publish', 'comment'],
    );
  });

  it('is refused where the platform has none, and when longer than its text limit', async () => {
    const { prepare } = setup({}, [{ id: 'quiet', features: { firstComment: false } }]);
    const prepared = await prepare({
      accountIds: ['a', 'on-quiet'],
      accountOptions: { a: { firstComment: 'x'.repeat(101) }, 'on-quiet': { firstComment: 'hi' } },
    });
    const [a, quiet] = prepared.validation.results;
    assert.deepEqual(
      a!.errors.map((e) => [e.code, e.path]),
      [['first_comment_too_long', 'accountOptions.a.firstComment']],
    );
    assert.deepEqual(
      quiet!.errors.map((e) => [e.code, e.path]),
      [['first_comment_unsupported', 'accountOptions.on-quiet.firstComment']],
    );
    const blank = await prepare({
      accountIds: ['on-quiet'],
      accountOptions: { 'on-quiet': { firstComment: ' ' } },
    });
    assert.equal(blank.validation.valid, true, 'a blank first comment is none');
  });
});

describe('alt text', () => {
  it('reaches the publisher on every media file, thread parts included', async () => {
    const { chain, publish } = setup();
    await publish({
      media: [{ key: 'img-1.png', altText: 'a cat' }],
      thread: [{ message: 'two', media: [{ key: 'img-2.png', altText: 'a dog' }] }],
    });
    assert.deepEqual(
      chain.posted().map((c) => c.media),
      [[{ key: 'img-1.png', altText: 'a cat' }], [{ key: 'img-2.png', altText: 'a dog' }]],
    );
  });

  it("is an error past the platform's limit and a warning where the platform has none", async () => {
    const { prepare } = setup({}, [{ id: 'noalt', features: { altText: null } }]);
    const prepared = await prepare({
      accountIds: ['a', 'on-noalt'],
      media: [{ key: 'img-1.png', altText: 'é'.repeat(51) }],
    });
    const [a, noalt] = prepared.validation.results;
    assert.deepEqual(
      a!.errors.map((e) => [e.code, e.path]),
      [['alt_text_too_long', 'media[0].altText']],
    );
    assert.equal(noalt!.valid, true);
    assert.deepEqual(
      noalt!.warnings.map((w) => [w.code, w.message]),
      [['alt_text_unsupported', 'Chain does not support alt text; the media is posted without it']],
    );
    const exact = await prepare({ media: [{ key: 'img-1.png', altText: '😀'.repeat(50) }] });
    assert.equal(exact.validation.valid, true, 'counted in characters, not UTF-16 units');
  });
});
