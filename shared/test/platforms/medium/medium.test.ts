import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { createMediumPublisher, mediumConfigFromEnv } from '../../../src/platforms/medium/index.ts';
import { mediumOptionsSchema } from '../../../src/platforms/medium/options.ts';
import { validateMediumPost } from '../../../src/platforms/medium/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeMedium, startFakeMedium } from '../../fakes/medium.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { fastRetries, rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const token = 'medium-token-alice';
const fx = useFixture(
  async () => {
    const fake = await startFakeMedium({
      [token]: { username: 'alice', name: 'Alice' },
      'medium-token-noimages': { username: 'bob', canUploadImages: false },
    });
    return { fake, publisher: createMediumPublisher(mediumConfigFromEnv(fake.env())) };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
      f.fake.images.length = 0;
      f.publisher = createMediumPublisher({ apiUrl: f.fake.url });
    },
  },
);

const account = (integrationToken = token): PlatformAccount => ({
  id: 'med-1',
  platform: 'medium',
  platformAccountId: 'ignored',
  credentials: { integrationToken },
});
const context = (overrides = {}) => testPublishContext('med-1', overrides);
const image = (name: string, altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' }),
  ...(altText ? { altText } : {}),
});
const fake = (): FakeMedium => fx.fake;

describe('Medium publishing', () => {
  it('asks /v1/me for the author, uploads images first and posts Markdown with the URLs Medium returned', async () => {
    const result = await fx.publisher.publish(
      { message: '# Why tests\n\nBecause **bugs**.' },
      account(),
      [image('cover.png', 'The cover'), image('two.png', 'Chart [1]')],
      mediumOptionsSchema.parse({
        tags: 'testing, software, craft, extra',
        canonicalUrl: 'https://blog.example/why',
      }),
      context(),
    );
    const order = fake().server.requests.map((r) => `${r.method} ${r.path}`);
    assert.deepEqual(order, [
      'GET /v1/me',
      'POST /v1/images',
      'POST /v1/images',
      `POST /v1/users/${fake().userId(token)}/posts`,
    ]);
    const [cover, two] = fake().images;
    const post = fake().posts[0]!;
    assert.equal(post.title, 'Why tests');
    assert.equal(post.contentFormat, 'markdown');
    assert.equal(
      post.content,
      `# Why tests\n\n![The cover](<${cover!.url}>)\n\nBecause **bugs**.\n\n![Chart \\[1\\]](<${two!.url}>)`,
    );
    assert.deepEqual(post.tags, ['testing', 'software', 'craft']);
    assert.equal(post.canonicalUrl, 'https://blog.example/why');
    assert.equal(post.publishStatus, 'public');
    assert.deepEqual(result, { platformPostId: post.id, url: post.url });
    const sent = fake().calls(/\/posts$/, 'POST')[0]!;
    assert.equal(sent.headers.authorization, `Bearer ${token}`);
    assert.deepEqual((sent.body as { tags: string[] }).tags, ['testing', 'software', 'craft']);
    assert.equal(fake().calls('/v1/images')[0]!.files.image?.type, 'image/png');
  });

  it('takes the title option and saves a draft or an unlisted story', async () => {
    await fx.publisher.publish(
      { message: 'All body' },
      account(),
      [],
      { title: 'Chosen', publishStatus: 'draft' },
      context(),
    );
    await fx.publisher.publish(
      { message: 'Quiet\nx' },
      account(),
      [],
      { publishStatus: 'unlisted' },
      context(),
    );
    assert.deepEqual(
      fake().posts.map((p) => [p.title, p.content, p.publishStatus]),
      [
        ['Chosen', '# Chosen\n\nAll body', 'draft'],
        ['Quiet', '# Quiet\n\nx', 'unlisted'],
      ],
    );
  });

  it('classifies refusals: bad token, no image scope, invalid story, 429 with Retry-After, 5xx', async () => {
    const bad = await rejection(fx.publisher.publish({ message: 'T' }, account('nope'), [], {}, context()));
    assert.deepEqual([bad.code, bad.retryable, bad.status], ['credentials_invalid', false, 401]);
    assert.match(bad.message, /Token was invalid/);
    const scope = await rejection(
      fx.publisher.publish(
        { message: 'T' },
        account('medium-token-noimages'),
        [image('a.png')],
        {},
        context(),
      ),
    );
    assert.deepEqual([scope.code, scope.status], ['credentials_invalid', 403]);
    assert.match(scope.message, /upload images/);
    const invalid = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(101) }, account(), [], {}, context()),
    );
    assert.deepEqual([invalid.code, invalid.retryable], ['content_rejected', false]);
    assert.match(invalid.message, /Title exceeds 100/);
    fake().server.inject({
      path: /\/posts$/,
      status: 429,
      headers: { 'retry-after': '7' },
      json: { errors: [] },
    });
    const limited = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([limited.code, limited.retryAfterMs, limited.retryable], ['rate_limited', 7000, true]);
    fake().server.inject({ status: 503, text: 'Service Unavailable' });
    const down = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    assert.equal(fake().posts.length, 0);
  });

  it('a retry after a failed post reuses the images already uploaded', async () => {
    fake().server.inject({ path: /\/posts$/, status: 502, text: 'Bad Gateway' });
    const ctx = context();
    const result = await withRetry(
      () => fx.publisher.publish({ message: 'Once\nbody' }, account(), [image('a.png')], {}, ctx),
      fastRetries(),
    );
    assert.equal(fake().images.length, 1, 'uploaded once');
    assert.equal(fake().posts.length, 1);
    assert.equal(result.platformPostId, fake().posts[0]!.id);
    assert.equal(fx.publisher.dedupe, 'none', 'Medium lists no posts: a lost answer stays unknown');
  });

  it('verifies the token and names the account by the author', async () => {
    assert.deepEqual(await fx.publisher.verifyCredentials(account()), {
      name: 'Alice',
      username: 'alice',
      platformAccountId: fake().userId(token),
      avatarUrl: 'https://cdn-images-1.medium.com/fit/c/400/400/alice.png',
    });
    const refused = await rejection(fx.publisher.verifyCredentials(account('nope')));
    assert.equal(refused.code, 'credentials_invalid');
  });
});

const info = (contentType = 'image/png'): MediaInfo => ({
  key: 'k',
  filename: 'a',
  contentType,
  size: 1,
  kind: 'image',
  url: 'http://127.0.0.1/media/a',
});
const target = {
  id: 'med-9',
  platform: 'medium',
  platformAccountId: 'a',
  credentials: { integrationToken: 'k' },
};

describe('Medium validation', () => {
  it('title up to 100 characters, from the option or the first line', () => {
    assert.deepEqual(validateMediumPost({ message: 'é'.repeat(100) }, target, [], {}).errors, []);
    const long = validateMediumPost({ message: 'é'.repeat(101) }, target, [], {}).errors;
    assert.deepEqual(
      long.map((e) => [e.code, e.path]),
      [['title_too_long', 'message']],
    );
    const option = validateMediumPost({ message: 'x' }, target, [], { title: 'y'.repeat(101) }).errors;
    assert.deepEqual(
      option.map((e) => e.path),
      ['accountOptions.med-9.title'],
    );
    assert.equal(validateMediumPost({ message: '\n\n' }, target, [], {}).errors[0]?.code, 'title_required');
  });

  it('images Medium takes; uploaded, so a loopback media URL needs no warning; tags past 3 warned', () => {
    const local = validateMediumPost({ message: 'T' }, target, [info()], {});
    assert.deepEqual([local.errors, local.warnings], [[], []]);
    assert.equal(
      validateMediumPost({ message: 'T' }, target, [info('image/webp')], {}).errors[0]?.code,
      'media_type_unsupported',
    );
    assert.equal(
      validateMediumPost({ message: 'T' }, target, [info('video/mp4')], {}).errors[0]?.code,
      'media_type_unsupported',
    );
    const tags = validateMediumPost({ message: 'T' }, target, [], { tags: ['a', 'b', 'c', 'd'] });
    assert.deepEqual(
      tags.warnings.map((w) => [w.code, w.path]),
      [['tags_dropped', 'accountOptions.med-9.tags']],
    );
  });

  it('options: at most 5 tags of 25 characters, an http(s) canonical URL, a known status', () => {
    assert.deepEqual(mediumOptionsSchema.parse({ tags: 'a, b,  A' }), { tags: ['a', 'b'] });
    assert.equal(mediumOptionsSchema.safeParse({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }).success, false);
    assert.equal(mediumOptionsSchema.safeParse({ tags: ['x'.repeat(26)] }).success, false);
    assert.equal(mediumOptionsSchema.safeParse({ canonicalUrl: 'javascript:alert(1)' }).success, false);
    assert.equal(mediumOptionsSchema.safeParse({ publishStatus: 'private' }).success, false);
    assert.equal(mediumOptionsSchema.safeParse({ publish: 'draft' }).success, false);
  });
});
