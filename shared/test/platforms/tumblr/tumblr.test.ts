import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { TumblrPublisher, tumblrConfigFromEnv, tumblrManifest } from '../../../src/platforms/tumblr/index.ts';
import { tumblrCredentialsSchema } from '../../../src/platforms/tumblr/options.ts';
import { validateTumblrPost } from '../../../src/platforms/tumblr/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { type FakeTumblr, startFakeTumblr } from '../../fakes/tumblr.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeTumblr();
    return { fake, publisher: new TumblrPublisher(tumblrConfigFromEnv(fake.env())) };
  },
  {
    stop: (f: { fake: FakeTumblr }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
    },
  },
);

const account = (credentials = fx.fake.credentials(), blog = 'alice'): PlatformAccount => ({
  id: 'tb-1',
  platform: 'tumblr',
  platformAccountId: blog,
  credentials,
});
const context = testPublishContext;
const png = (name = 'dot.png') =>
  memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' });
const mp4 = () =>
  memoryMedia(new Uint8Array(sampleMp4()), { filename: 'clip.mp4', contentType: 'video/mp4' });
const image: MediaInfo = {
  key: 'k',
  filename: 'a.png',
  contentType: 'image/png',
  size: 1000,
  kind: 'image',
  url: 'https://m.example/a.png',
};

describe('Tumblr credentials', () => {
  it('need the refresh token beside the access token (contract C): the access token lives 42 minutes', () => {
    assert.equal(tumblrCredentialsSchema.safeParse({ accessToken: 'a' }).success, false);
    assert.equal(tumblrCredentialsSchema.safeParse({ accessToken: 'a', refreshToken: 'r' }).success, true);
  });
});

describe('Tumblr validation and counting', () => {
  it('limits every paragraph (text block) to 4096 characters, as the counter counts', () => {
    const ok = `${'a'.repeat(4096)}\n\n${'b'.repeat(4096)}`;
    assert.deepEqual(validateTumblrPost({ message: ok }, []).errors, []);
    assert.equal(tumblrManifest.text.count({ message: ok, hasMedia: false, options: {} }).used, 4096);
    const long = `short\n\n${'😀'.repeat(4097)}`;
    assert.deepEqual(
      validateTumblrPost({ message: long }, []).errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.equal(tumblrManifest.text.count({ message: long, hasMedia: false, options: {} }).used, 4097);
  });

  it('needs text or media, at most 10 files and one video, of Tumblr types and sizes', () => {
    const codes = (message: string, media: MediaInfo[]) =>
      validateTumblrPost({ message }, media).errors.map((e) => e.code);
    assert.deepEqual(codes('  ', []), ['text_required']);
    assert.deepEqual(codes('', [image]), []);
    assert.deepEqual(codes('x', Array(11).fill(image)), ['too_many_media']);
    const video: MediaInfo = { ...image, contentType: 'video/mp4', kind: 'video' };
    assert.deepEqual(codes('x', [video, video]), ['media_mix_unsupported']);
    assert.deepEqual(codes('x', [{ ...image, contentType: 'application/pdf', kind: 'document' as const }]), [
      'media_type_unsupported',
    ]);
    assert.deepEqual(codes('x', [{ ...image, size: 21 * 1024 * 1024 }]), ['media_too_large']);
  });

  it('refuses an unknown state and takes tags as a comma-separated string', () => {
    assert.equal(fx.publisher.optionsSchema.safeParse({ state: 'scheduled' }).success, false);
    assert.deepEqual(fx.publisher.optionsSchema.parse({ tags: 'art, #cats,art' }), {
      tags: ['art', '#cats'],
    });
    assert.equal(fx.publisher.optionsSchema.safeParse({ tag: 'x' }).success, false);
  });
});

describe('Tumblr publishing', () => {
  it('posts NPF text blocks as JSON with tags and state, links formatted', async () => {
    const result = await fx.publisher.publish(
      { message: 'First paragraph\nstill first\n\nSee https://example.com/a.' },
      account(),
      [],
      { tags: ['art', '#cats'] },
      context('tb-1'),
    );
    const post = fx.fake.posts[0]!;
    assert.equal(post.encoding, 'json');
    assert.deepEqual(post.content, [
      { type: 'text', text: 'First paragraph\nstill first' },
      {
        type: 'text',
        text: 'See https://example.com/a.',
        formatting: [{ start: 4, end: 25, type: 'link', url: 'https://example.com/a' }],
      },
    ]);
    assert.deepEqual([post.state, post.tags], ['published', ['art', 'cats']]);
    assert.deepEqual(result, { platformPostId: post.id, url: `https://www.tumblr.com/alice/${post.id}` });
  });

  it('uploads images and a video as parts of the same multipart request', async () => {
    await fx.publisher.publish(
      { message: 'Pictures' },
      account(),
      [{ ...png(), altText: 'A dot' }, png('two.png'), mp4()],
      { state: 'draft' },
      context('tb-1'),
    );
    const [request] = fx.fake.calls('POST', /\/posts$/);
    assert.match(String(request!.headers['content-type']), /^multipart\/form-data; boundary=/);
    const post = fx.fake.posts[0]!;
    assert.equal(post.state, 'draft');
    assert.deepEqual(post.content.slice(1), [
      { type: 'image', media: [{ type: 'image/png', identifier: 'media0' }], alt_text: 'A dot' },
      { type: 'image', media: [{ type: 'image/png', identifier: 'media1' }] },
      { type: 'video', media: { type: 'video/mp4', identifier: 'media2' } },
    ]);
    assert.deepEqual(
      post.media.map((m) => [m.identifier, m.type, m.filename, m.size]),
      [
        ['media0', 'image/png', 'dot.png', samplePng().length],
        ['media1', 'image/png', 'two.png', samplePng().length],
        ['media2', 'video/mp4', 'clip.mp4', sampleMp4().length],
      ],
    );
  });

  it('queues a post: no public URL yet', async () => {
    const result = await fx.publisher.publish(
      { message: 'Later' },
      account(),
      [],
      { state: 'queue' },
      context('tb-1'),
    );
    assert.equal(fx.fake.posts[0]!.state, 'queue');
    assert.deepEqual(result, { platformPostId: fx.fake.posts[0]!.id });
  });

  it('refreshes an expired token first, hands back the rotated pair, and uses it', async () => {
    const stored: Record<string, unknown>[] = [];
    const old = fx.fake.credentials({ expiresInSeconds: 1 });
    const before = fx.fake.refreshes;
    await fx.publisher.publish(
      { message: 'Fresh' },
      account(old),
      [],
      {},
      context('tb-1', { onCredentialsRefreshed: (c) => void stored.push(c) }),
    );
    assert.equal(fx.fake.refreshes, before + 1);
    assert.equal(stored.length, 1);
    assert.notEqual(stored[0]!.refreshToken, old.refreshToken);
    assert.notEqual(stored[0]!.accessToken, old.accessToken);
    assert.ok(Date.parse(String(stored[0]!.expiresAt)) > Date.now() + 60_000);
    // A second account of the same login still holding the spent refresh token gets the same rotation.
    const again: Record<string, unknown>[] = [];
    await fx.publisher.publish(
      { message: 'Other blog' },
      account(old, 'alice-art'),
      [],
      {},
      context('tb-2', { onCredentialsRefreshed: (c) => void again.push(c) }),
    );
    assert.equal(fx.fake.refreshes, before + 1, 'the spent refresh token is not spent twice');
    assert.equal(again[0]!.refreshToken, stored[0]!.refreshToken);
    assert.equal(fx.fake.posts.at(-1)!.blog, 'alice-art');
  });

  it('a refused token refreshes once on 401; a revoked login is needs_reconnect', async () => {
    const credentials = fx.fake.credentials();
    fx.fake.server.inject({
      path: /\/posts$/,
      status: 401,
      json: { meta: { status: 401, msg: 'Unauthorized' }, response: [] },
    });
    await fx.publisher.publish({ message: 'After 401' }, account(credentials), [], {}, context('tb-1'));
    assert.equal(fx.fake.posts.length, 1);
    const creds = fx.fake.credentials();
    fx.fake.revoke();
    const refused = await rejection(
      fx.publisher.publish({ message: 'Revoked' }, account(creds), [], {}, context('tb-1')),
    );
    assert.equal(refused.code, 'needs_reconnect');
    assert.equal(refused.retryable, false);
  });

  it('maps Tumblr errors: unknown blog, rejected content, 5xx, and rate limits with their reset', async () => {
    const creds = fx.fake.credentials();
    const unknown = await rejection(
      fx.publisher.publish({ message: 'x' }, account(creds, 'nobody'), [], {}, context('tb-1')),
    );
    assert.equal(unknown.code, 'target_unreachable');
    fx.fake.server.inject({ path: /\/posts$/, status: 503, text: 'busy' });
    const down = await rejection(
      fx.publisher.publish({ message: 'x' }, account(creds), [], {}, context('tb-1')),
    );
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    fx.fake.rateLimit({ resetSeconds: 3600 });
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(creds), [], {}, context('tb-1')),
    );
    assert.deepEqual([limited.code, limited.retryAfterMs], ['rate_limited', 3_600_000]);
    // A reset a moment away is waited out inside the publish.
    fx.fake.rateLimit({ resetSeconds: 0 });
    await fx.publisher.publish({ message: 'after the wait' }, account(creds), [], {}, context('tb-1'));
    assert.equal(fx.fake.posts.at(-1)!.content[0].text, 'after the wait');
  });

  it('a resend after a lost answer finds the earlier post instead of posting twice', async () => {
    const creds = fx.fake.credentials();
    const ctx = context('tb-1');
    fx.fake.server.inject({ path: /\/posts$/, drop: true });
    // The fake records the request before dropping it, but does not create the post; create it as Tumblr would have.
    const lost = await rejection(fx.publisher.publish({ message: 'Once only' }, account(creds), [], {}, ctx));
    assert.equal(lost.code, 'network_error');
    fx.fake.posts.push({
      id: '123456789',
      blog: 'alice',
      state: 'published',
      tags: [],
      content: [{ type: 'text', text: 'Once only' }],
      media: [],
      timestamp: Math.floor(Date.now() / 1000),
      encoding: 'json',
    });
    const result = await fx.publisher.publish({ message: 'Once only' }, account(creds), [], {}, ctx);
    assert.equal(result.platformPostId, '123456789');
    assert.equal(fx.fake.posts.length, 1);
    // A draft is looked for among the drafts.
    const draft = context('tb-1', { resumed: { since: new Date(Date.now() - 1000) } });
    const first = await fx.publisher.publish(
      { message: 'A draft' },
      account(creds),
      [],
      { state: 'draft' },
      draft,
    );
    const second = await fx.publisher.publish(
      { message: 'A draft' },
      account(creds),
      [],
      { state: 'draft' },
      draft,
    );
    assert.equal(second.platformPostId, first.platformPostId);
    assert.equal(fx.fake.calls('GET', /\/posts\/draft$/).length, 2);
  });

  it('verifies the blog among the login’s blogs', async () => {
    const creds = fx.fake.credentials();
    const profile = await fx.publisher.verifyCredentials(account(creds, 'alice-art'));
    assert.deepEqual(profile, {
      name: 'Alice draws',
      username: 'alice-art',
      platformAccountId: 'alice-art',
      avatarUrl: 'https://64.media.tumblr.com/avatar_alice-art_64.png',
    });
    const primary = await fx.publisher.verifyCredentials(account(creds, ''));
    assert.equal(primary.platformAccountId, 'alice');
    const other = await rejection(fx.publisher.verifyCredentials(account(creds, 'bob')));
    assert.equal(other.code, 'target_unreachable');
  });
});
