import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { GhostPublisher } from '../../../src/platforms/ghost/index.ts';
import { ghostManifest } from '../../../src/platforms/ghost/manifest.ts';
import { ghostOptionsSchema } from '../../../src/platforms/ghost/options.ts';
import { adminToken } from '../../../src/platforms/ghost/token.ts';
import { validateGhostPost } from '../../../src/platforms/ghost/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeGhost, startFakeGhost } from '../../fakes/ghost.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const fx = useFixture(
  async () => {
    const fake = await startFakeGhost({ path: '/blog', title: 'Field Notes' });
    return { fake, key: fake.addKey(), publisher: new GhostPublisher() };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
      f.fake.images.length = 0;
      f.publisher = new GhostPublisher();
    },
  },
);

const account = (fake: FakeGhost, adminApiKey: string): PlatformAccount => ({
  id: 'gh-1',
  platform: 'ghost',
  platformAccountId: fake.url,
  credentials: fake.credentials(adminApiKey),
});
const context = (overrides = {}) => testPublishContext('gh-1', overrides);
const png = (name: string, altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' }),
  ...(altText ? { altText } : {}),
});
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('Ghost Admin API token', () => {
  it('is HS256 with the key id as kid, audience /admin/, valid five minutes, signed with the hex secret', async () => {
    const key = `${'a'.repeat(24)}:${'0f'.repeat(32)}`;
    const token = await adminToken(key, Date.UTC(2026, 0, 1));
    const [head, body] = token.split('.');
    assert.deepEqual(decode(head!), { alg: 'HS256', typ: 'JWT', kid: 'a'.repeat(24) });
    const claims = decode(body!);
    assert.equal(claims.aud, '/admin/');
    assert.equal(claims.exp - claims.iat, 300);
    assert.equal(claims.iat, Date.UTC(2026, 0, 1) / 1000);
  });

  it('is refused by Ghost when stale, unknown or revoked', async () => {
    const stale = await adminToken(fx.key, Date.now() - 6 * 60_000);
    const answer = await fetch(`${fx.fake.url}/ghost/api/admin/posts/`, {
      headers: { authorization: `Ghost ${stale}` },
    });
    assert.equal(answer.status, 401);
    assert.equal(((await answer.json()) as { errors: { code: string }[] }).errors[0]!.code, 'INVALID_JWT');
    const other = fx.fake.addKey();
    fx.fake.revokeKey(other);
    const revoked = await rejection(fx.publisher.verifyCredentials(account(fx.fake, other)));
    assert.equal(revoked.code, 'credentials_invalid');
    assert.match(revoked.message, /Unknown Admin API Key/);
  });
});

describe('Ghost publishing', () => {
  it('verifies the key with an authenticated call and names the account after the site', async () => {
    const profile = await fx.publisher.verifyCredentials(account(fx.fake, fx.key));
    assert.deepEqual(profile, {
      name: 'Field Notes',
      username: `${new URL(fx.fake.url).host}/blog`,
      platformAccountId: fx.fake.url,
    });
    const call = fx.fake.calls('/posts/', 'GET')[0]!;
    assert.equal(call.query.get('limit'), '1');
    assert.equal(call.headers['accept-version'], 'v5.0');
    assert.match(String(call.headers.authorization), /^Ghost [\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('uploads images, then posts HTML with the feature image, tags and status published', async () => {
    const result = await fx.publisher.publish(
      { message: 'Field report\n\nIt *worked*.\n\n<iframe src="x">' },
      account(fx.fake, fx.key),
      [png('cover.png', 'Cover alt'), png('more.png', 'More')],
      { tags: ['Reports', 'Field'] },
      context(),
    );
    const post = fx.fake.posts[0]!;
    assert.equal(post.source, 'html');
    assert.equal(post.status, 'published');
    assert.equal(post.title, 'Field report');
    assert.deepEqual(post.tags, ['Reports', 'Field']);
    const [cover, more] = fx.fake.images;
    assert.equal(post.featureImage, cover!.url);
    assert.equal(post.featureImageAlt, 'Cover alt');
    assert.equal(
      post.html,
      `<p>It <em>worked</em>.</p>\n<p>&lt;iframe src=&quot;x&quot;&gt;</p>\n\n<figure class="kg-card kg-image-card"><img src="${more!.url}" alt="More"></figure>`,
    );
    assert.equal(cover!.ref, 'cover.png');
    const upload = fx.fake.calls('/images/upload/', 'POST')[0]!;
    assert.equal((upload.body as Record<string, string>).purpose, 'image');
    assert.deepEqual(result, { platformPostId: post.id, url: `${fx.fake.url}/field-report/` });
  });

  it('sends the status it is given (draft) and the title option', async () => {
    await fx.publisher.publish(
      { message: 'Body only' },
      account(fx.fake, fx.key),
      [],
      { title: 'Chosen', status: 'draft' },
      context(),
    );
    assert.deepEqual(
      [fx.fake.posts[0]!.title, fx.fake.posts[0]!.status, fx.fake.posts[0]!.html],
      ['Chosen', 'draft', '<p>Body only</p>\n'],
    );
  });

  it("classifies Ghost's refusals", async () => {
    const tooLong = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(256) }, account(fx.fake, fx.key), [], {}, context()),
    );
    assert.equal(tooLong.code, 'content_rejected');
    assert.match(tooLong.message, /exceeds maximum length of 255/);
    const svg = memoryMedia(new Uint8Array(samplePng()), { filename: 'a.tif', contentType: 'image/tiff' });
    const media = await rejection(
      fx.publisher.publish({ message: 'T' }, account(fx.fake, fx.key), [svg], {}, context()),
    );
    assert.equal(media.code, 'media_rejected');
    fx.fake.server.inject({
      status: 429,
      headers: { 'retry-after': '3' },
      json: { errors: [{ message: 'Too many requests', type: 'TooManyRequestsError' }] },
    });
    const limited = await rejection(
      fx.publisher.publish({ message: 'T' }, account(fx.fake, fx.key), [], {}, context()),
    );
    assert.deepEqual([limited.code, limited.retryAfterMs], ['rate_limited', 3000]);
    const nowhere = { ...account(fx.fake, fx.key), credentials: fx.fake.credentials(fx.key) };
    nowhere.credentials.siteUrl = `${fx.fake.server.url}/elsewhere`;
    const missing = await rejection(fx.publisher.verifyCredentials(nowhere));
    assert.equal(missing.code, 'target_unreachable');
    fx.fake.server.inject({
      status: 301,
      headers: { location: 'https://admin.example.com/ghost/api/admin/posts/' },
    });
    const moved = await rejection(
      fx.publisher.publish({ message: 'T' }, account(fx.fake, fx.key), [], {}, context()),
    );
    assert.equal(moved.code, 'target_unreachable');
    assert.equal(fx.fake.posts.length, 0);
  });

  it('an answer lost after Ghost created the post is found by its title: never a second post', async () => {
    let cut = true;
    const lossy = async (input: string | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (cut && init?.method === 'POST' && String(input).includes('/posts/')) {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    const ctx = context({ accountHostFetch: lossy, idempotencyKey: 'lost:gh-1' });
    await rejection(
      fx.publisher.publish({ message: 'Once\nx' }, account(fx.fake, fx.key), [png('a.png')], {}, ctx),
    );
    const again = await fx.publisher.publish(
      { message: 'Once\nx' },
      account(fx.fake, fx.key),
      [png('a.png')],
      {},
      ctx,
    );
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(fx.fake.images.length, 1);
    assert.equal(again.platformPostId, fx.fake.posts[0]!.id);
  });
});

describe('Ghost validation', () => {
  const target = {
    id: 'gh-9',
    platform: 'ghost',
    platformAccountId: 'x',
    credentials: { siteUrl: 'https://g.example', adminApiKey: `${'1'.repeat(24)}:${'2'.repeat(64)}` },
  };
  it('counts the title as Ghost does (emoji selectors free), up to 255', () => {
    const title = `${'a'.repeat(254)}❤️`;
    assert.equal(ghostManifest.text.count({ message: title, hasMedia: false, options: {} }).used, 255);
    assert.deepEqual(validateGhostPost({ message: title }, target, [], {}).errors, []);
    assert.equal(
      validateGhostPost({ message: `${title}b` }, target, [], {}).errors[0]?.code,
      'title_too_long',
    );
  });
  it('checks the key format and the options', () => {
    const bad = validateGhostPost(
      { message: 'T' },
      { ...target, credentials: { siteUrl: 'https://g.example', adminApiKey: 'nope' } },
      [],
      {},
    );
    assert.equal(bad.errors[0]?.code, 'credentials_invalid');
    assert.equal(ghostOptionsSchema.safeParse({ status: 'publish' }).success, false);
    assert.deepEqual(ghostOptionsSchema.parse({ tags: 'a, b' }), { tags: ['a', 'b'] });
  });
});
