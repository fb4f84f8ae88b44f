import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeReddit, startFakeReddit } from '@postwave/shared/testing';
import { publishNow, uploadPng, validation } from './chat-helpers.ts';
import { startTestServer, type TestServer } from './helpers.ts';

/** Reddit through the self-hosted server: accounts file → upload → validation → POST /api/v1/posts. */
describe('self-hosted: Reddit', () => {
  let reddit: FakeReddit;
  let server: TestServer;
  before(async () => {
    reddit = await startFakeReddit();
    const entry = (id: string, subreddit: string) => ({
      id,
      platform: 'reddit',
      platformAccountId: subreddit,
      credentials: reddit.credentials(),
    });
    server = await startTestServer({
      accounts: [
        entry('rd-main', 'postwave'),
        entry('rd-flair', 'flairland'),
        entry('rd-links', 'linksonly'),
        { ...entry('rd-expired', 'postwave'), credentials: reddit.credentials({ expired: true }) },
      ],
      env: reddit.env(),
    });
  });
  after(async () => {
    await server?.close();
    await reddit?.close();
  });

  it('validates the title, the subreddit’s rules and its flairs before anything is sent', async () => {
    assert.deepEqual((await validation(server, { message: 'Body', accountIds: ['rd-main'] })).errors, [
      'option_required',
    ]);
    const titled = (id: string, options: Record<string, unknown> = {}, message = 'Body') => ({
      message,
      accountIds: [id],
      accountOptions: { [id]: { title: 'A title', ...options } },
    });
    assert.equal((await validation(server, titled('rd-main'))).valid, true);
    assert.deepEqual((await validation(server, titled('rd-flair'))).errors, ['flair_required']);
    assert.deepEqual((await validation(server, titled('rd-flair', { flairId: 'nope' }))).errors, [
      'option_not_offered',
    ]);
    assert.equal((await validation(server, titled('rd-flair', { flairId: 'f-news-0001' }))).valid, true);
    assert.deepEqual((await validation(server, titled('rd-links'))).errors, ['post_kind_not_allowed']);
    assert.equal(
      (await validation(server, titled('rd-links', {}, 'https://example.com/a'))).valid,
      true,
      'a link post is what r/linksonly takes',
    );
    assert.deepEqual((await validation(server, titled('rd-main', { title: 't'.repeat(301) }))).errors, [
      'title_too_long',
    ]);
    assert.equal(reddit.posts.length, 0);
  });

  it('posts a text post with its flair, and an image through the media lease', async () => {
    const text = await publishNow(server, {
      message: 'Hello from the self-hosted server',
      accountIds: ['rd-flair'],
      accountOptions: { 'rd-flair': { title: 'Self-hosted', flairId: 'f-free-0002', flairText: 'Ours' } },
    });
    assert.equal(text.status, 200, text.raw);
    const post = reddit.posts.at(-1)!;
    assert.deepEqual(
      [post.kind, post.subreddit, post.flairId, post.flairText],
      ['self', 'flairland', 'f-free-0002', 'Ours'],
    );
    assert.equal(text.results[0]!.platformPostId, post.name);

    const media = [await uploadPng(server, 'cat.png')];
    const image = await publishNow(server, {
      message: '',
      media,
      accountIds: ['rd-main'],
      accountOptions: { 'rd-main': { title: 'A cat' } },
    });
    assert.equal(image.status, 200, image.raw);
    assert.equal(reddit.posts.at(-1)?.kind, 'image');
    assert.equal(image.results[0]!.platformPostId, reddit.posts.at(-1)?.name);
  });

  it('refreshes an expired token from the accounts file, and a revoked one fails needs_reconnect', async () => {
    const refreshed = await publishNow(server, {
      message: 'x',
      accountIds: ['rd-expired'],
      accountOptions: { 'rd-expired': { title: 'Refreshed' } },
    });
    assert.equal(refreshed.status, 200, refreshed.raw);
    reddit.revokeAll();
    const failed = await publishNow(server, {
      message: 'x',
      accountIds: ['rd-main'],
      accountOptions: { 'rd-main': { title: 'Revoked' } },
    });
    assert.equal(failed.results[0]!.error?.code, 'needs_reconnect', failed.raw);
  });
});
