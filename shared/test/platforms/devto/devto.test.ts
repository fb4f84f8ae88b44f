import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { createDevtoPublisher, devtoConfigFromEnv } from '../../../src/platforms/devto/index.ts';
import { devtoManifest } from '../../../src/platforms/devto/manifest.ts';
import { devtoOptionsSchema } from '../../../src/platforms/devto/options.ts';
import { validateDevtoPost } from '../../../src/platforms/devto/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeDevto, startFakeDevto } from '../../fakes/devto.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { fastRetries, rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const key = 'devto-key-alice';
const fx = useFixture(
  async () => {
    const fake = await startFakeDevto({
      keys: {
        [key]: { username: 'alice', name: 'Alice' },
        'devto-key-banned': { username: 'bob', suspended: true },
      },
    });
    return { fake, publisher: createDevtoPublisher(devtoConfigFromEnv(fake.env())) };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.articles.length = 0;
      f.publisher = createDevtoPublisher({ apiUrl: f.fake.url });
    },
  },
);

const account = (apiKey = key): PlatformAccount => ({
  id: 'dev-1',
  platform: 'devto',
  platformAccountId: 'alice',
  credentials: { apiKey },
});
const context = (overrides = {}) => testPublishContext('dev-1', overrides);
const image = (name: string, altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), {
    filename: name,
    contentType: 'image/png',
    url: `https://media.example.test/media/${name}`,
  }),
  ...(altText ? { altText } : {}),
});
const fake = (): FakeDevto => fx.fake;

describe('Dev.to publishing', () => {
  it('posts the first line as title and the rest as Markdown, cover and images by public URL', async () => {
    const result = await fx.publisher.publish(
      { message: '# Why tests\n\nBecause **bugs**.\n<b>raw</b>' },
      account(),
      [image('cover.png'), image('two.png', 'Chart [1]')],
      devtoOptionsSchema.parse({ tags: ['#Testing', 'webdev'], canonicalUrl: 'https://blog.example/why' }),
      context(),
    );
    const article = fake().articles[0]!;
    assert.equal(article.title, 'Why tests');
    assert.equal(
      article.bodyMarkdown,
      'Because **bugs**.\n<b>raw</b>\n\n![Chart \\[1\\]](<https://media.example.test/media/two.png>)',
    );
    assert.equal(article.published, true);
    assert.deepEqual(article.tags, ['testing', 'webdev']);
    assert.equal(article.mainImage, 'https://media.example.test/media/cover.png');
    assert.equal(article.canonicalUrl, 'https://blog.example/why');
    assert.deepEqual(result, {
      platformPostId: String(article.id),
      url: `${fake().server.url}/alice/${article.slug}`,
    });
    const call = fake().calls('/articles', 'POST')[0]!;
    assert.equal(call.headers['api-key'], key);
    assert.equal(call.headers.accept, 'application/vnd.forem.api-v1+json');
  });

  it('saves a draft with published: false and takes the title option', async () => {
    await fx.publisher.publish(
      { message: 'All body' },
      account(),
      [],
      { title: 'Chosen', published: false },
      context(),
    );
    const article = fake().articles[0]!;
    assert.deepEqual([article.title, article.bodyMarkdown, article.published], ['Chosen', 'All body', false]);
  });

  it('classifies refusals: bad key, Forem validation, 429 with Retry-After, 5xx', async () => {
    const bad = await rejection(fx.publisher.publish({ message: 'T' }, account('nope'), [], {}, context()));
    assert.equal(bad.code, 'credentials_invalid');
    const suspended = await rejection(fx.publisher.verifyCredentials(account('devto-key-banned')));
    assert.equal(suspended.code, 'credentials_invalid');
    const invalid = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(129) }, account(), [], {}, context()),
    );
    assert.equal(invalid.code, 'content_rejected');
    assert.match(invalid.message, /Title is too long/);
    fake().rateLimit({ retryAfterSeconds: 4 });
    const limited = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([limited.code, limited.retryAfterMs, limited.retryable], ['rate_limited', 4000, true]);
    fake().server.inject({ status: 503, text: 'Service Unavailable' });
    const down = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    assert.equal(fake().articles.length, 0);
  });

  it("waits out Forem's write throttle through the retry policy", async () => {
    const throttled = await startFakeDevto({ keys: { [key]: { username: 'alice' } }, throttleWrites: true });
    try {
      const publisher = createDevtoPublisher({ apiUrl: throttled.url });
      const send = (title: string) =>
        withRetry(
          () => publisher.publish({ message: title }, account(), [], {}, context()),
          fastRetries(5_000),
        );
      await send('First');
      await send('Second');
      assert.deepEqual(
        throttled.articles.map((a) => a.title),
        ['First', 'Second'],
      );
      assert.equal(
        throttled.server.requests.filter((r) => r.method === 'POST').length,
        3,
        'one 429 in between',
      );
    } finally {
      await throttled.close();
    }
  });

  it('an answer lost after Dev.to created the article is found by its title: never a second article', async () => {
    let cut = true;
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (cut && init?.method === 'POST') {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    try {
      const ctx = context({ idempotencyKey: 'lost:dev-1' });
      await rejection(fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], {}, ctx));
      const again = await fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], {}, ctx);
      assert.equal(fake().articles.length, 1);
      assert.equal(again.platformPostId, String(fake().articles[0]!.id));
    } finally {
      globalThis.fetch = original;
    }
  });

  it('verifies the key and names the account by its username', async () => {
    const profile = await fx.publisher.verifyCredentials(account());
    assert.deepEqual(profile, {
      name: 'Alice',
      username: 'alice',
      platformAccountId: 'alice',
      avatarUrl: 'https://media.dev.example/alice.png',
    });
  });

  it('collects views, reactions and comments; a deleted article is gone', async () => {
    const a = await fx.publisher.publish({ message: 'One' }, account(), [], {}, context());
    const b = await fx.publisher.publish({ message: 'Two' }, account(), [], {}, context());
    Object.assign(fake().articles[0]!, { views: 120, reactions: 7, comments: 2 });
    fake().articles[1]!.deleted = true;
    const metrics = await fx.publisher.metrics!(
      [{ platformPostId: a.platformPostId }, { platformPostId: b.platformPostId }],
      account(),
      context(),
    );
    assert.deepEqual(Object.fromEntries(metrics), {
      [a.platformPostId]: { state: 'ok', metrics: { views: 120, likes: 7, comments: 2 } },
      [b.platformPostId]: { state: 'gone' },
    });
    assert.deepEqual(devtoManifest.analytics, { post: ['views', 'likes', 'comments'], account: [] });
  });
});

const info = (url: string, contentType = 'image/png'): MediaInfo => ({
  key: 'k',
  filename: 'a',
  contentType,
  size: 1,
  kind: 'image',
  url,
});
const target = { id: 'dev-9', platform: 'devto', platformAccountId: 'a', credentials: { apiKey: 'k' } };

describe('Dev.to validation', () => {
  it('title up to 128 characters; images only, fetched by public URL', () => {
    assert.deepEqual(validateDevtoPost({ message: 'é'.repeat(128) }, target, [], {}).errors, []);
    assert.equal(
      validateDevtoPost({ message: 'é'.repeat(129) }, target, [], {}).errors[0]?.code,
      'title_too_long',
    );
    const local = validateDevtoPost(
      { message: 'T' },
      target,
      [info('http://127.0.0.1:3000/media/a.png')],
      {},
    );
    assert.deepEqual(
      local.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    const pdf = validateDevtoPost({ message: 'T' }, target, [info('https://x/a.pdf', 'application/pdf')], {});
    assert.equal(pdf.errors[0]?.code, 'media_type_unsupported');
  });

  it('tags: at most 4, letters and digits, a leading # dropped and lower-cased', () => {
    assert.deepEqual(devtoOptionsSchema.parse({ tags: '#JavaScript, webdev' }), {
      tags: ['javascript', 'webdev'],
    });
    assert.equal(devtoOptionsSchema.safeParse({ tags: ['a', 'b', 'c', 'd', 'e'] }).success, false);
    assert.equal(devtoOptionsSchema.safeParse({ tags: ['web-dev'] }).success, false);
    assert.equal(devtoOptionsSchema.safeParse({ canonicalUrl: 'javascript:alert(1)' }).success, false);
    assert.deepEqual(devtoOptionsSchema.parse({ published: 'false' }), { published: false });
    assert.deepEqual(devtoOptionsSchema.parse({ published: true }), { published: true });
    assert.equal(devtoOptionsSchema.safeParse({ published: 'no' }).success, false);
  });
});
