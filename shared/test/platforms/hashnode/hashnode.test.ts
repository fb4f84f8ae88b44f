import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { createHashnodePublisher, hashnodeConfigFromEnv } from '../../../src/platforms/hashnode/index.ts';
import { hashnodeOptionsSchema } from '../../../src/platforms/hashnode/options.ts';
import { validateHashnodePost } from '../../../src/platforms/hashnode/validate.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { type FakeHashnode, startFakeHashnode } from '../../fakes/hashnode.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const token = 'hn-token-alice';
const blog = { id: '65f0aaaaaaaaaaaaaaaaaaa1', title: 'Alice writes', url: 'https://alice.hashnode.dev' };
const team = { id: '65f0bbbbbbbbbbbbbbbbbbb2', title: 'Team blog', url: 'https://blog.team.example' };
const free = {
  id: '65f0ccccccccccccccccccc3',
  title: 'Free blog',
  url: 'https://free.hashnode.dev',
  pro: false,
};
const fx = useFixture(
  async () => {
    const fake = await startFakeHashnode({
      [token]: { username: 'alice', name: 'Alice', publications: [blog, team, free] },
      'hn-token-bob': { username: 'bob', publications: [] },
    });
    return { fake, publisher: createHashnodePublisher(hashnodeConfigFromEnv(fake.env())) };
  },
  {
    stop: (f) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
      f.publisher = createHashnodePublisher({ apiUrl: f.fake.url });
    },
  },
);

const account = (publication = blog.id, personalAccessToken = token): PlatformAccount => ({
  id: 'hn-1',
  platform: 'hashnode',
  platformAccountId: publication,
  credentials: { personalAccessToken },
});
const context = (overrides = {}) => testPublishContext('hn-1', overrides);
const image = (name: string, altText?: string) => ({
  ...memoryMedia(new Uint8Array(samplePng()), {
    filename: name,
    contentType: 'image/png',
    url: `https://media.example.test/media/${name}`,
  }),
  ...(altText ? { altText } : {}),
});
const fake = (): FakeHashnode => fx.fake;

describe('Hashnode publishing', () => {
  it('publishPost with Markdown, tags as { slug, name }, the cover by public URL and the canonical URL', async () => {
    const result = await fx.publisher.publish(
      { message: '# Why tests\n\nBecause **bugs**.' },
      account(),
      [image('cover.png'), image('two.png', 'Chart')],
      hashnodeOptionsSchema.parse({
        tags: 'JavaScript, Web Development',
        subtitle: 'A short answer',
        canonicalUrl: 'https://blog.example/why',
      }),
      context(),
    );
    const post = fake().posts[0]!;
    assert.deepEqual(fake().operations(), ['publishPost']);
    assert.equal(fake().server.requests[0]!.headers.authorization, token);
    assert.deepEqual(
      [post.kind, post.publicationId, post.title, post.subtitle],
      ['post', blog.id, 'Why tests', 'A short answer'],
    );
    assert.equal(
      post.contentMarkdown,
      'Because **bugs**.\n\n![Chart](<https://media.example.test/media/two.png>)',
    );
    assert.deepEqual(post.tags, [
      { slug: 'javascript', name: 'JavaScript' },
      { slug: 'web-development', name: 'Web Development' },
    ]);
    assert.equal(post.coverImageURL, 'https://media.example.test/media/cover.png');
    assert.equal(post.originalArticleURL, 'https://blog.example/why');
    assert.deepEqual(result, { platformPostId: post.id, url: post.url });
  });

  it('draft: true saves a draft with createDraft; the title option takes the whole message as body', async () => {
    const result = await fx.publisher.publish(
      { message: 'All body' },
      account(),
      [],
      hashnodeOptionsSchema.parse({ title: 'Chosen', draft: 'true' }),
      context(),
    );
    assert.deepEqual(fake().operations(), ['createDraft']);
    const draft = fake().posts[0]!;
    assert.deepEqual([draft.kind, draft.title, draft.contentMarkdown], ['draft', 'Chosen', 'All body']);
    assert.deepEqual(result, { platformPostId: draft.id });
  });

  it('maps GraphQL errors: UNAUTHENTICATED, FORBIDDEN (no Pro plan, not retried), BAD_USER_INPUT; HTTP 429 and 5xx', async () => {
    const bad = await rejection(
      fx.publisher.publish({ message: 'T' }, account(blog.id, 'nope'), [], {}, context()),
    );
    assert.deepEqual([bad.code, bad.retryable], ['credentials_invalid', false]);
    const notPro = await rejection(
      fx.publisher.publish({ message: 'T' }, account(free.id), [], {}, context()),
    );
    assert.deepEqual([notPro.code, notPro.retryable], ['target_unreachable', false]);
    assert.match(notPro.message, /Pro/);
    const invalid = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(251) }, account(), [], {}, context()),
    );
    assert.deepEqual([invalid.code, invalid.retryable], ['content_rejected', false]);
    assert.match(invalid.message, /at most 250/);
    fake().server.inject({
      status: 429,
      headers: { 'retry-after': '3' },
      json: { errors: [{ message: 'Too many requests' }] },
    });
    const limited = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([limited.code, limited.retryAfterMs, limited.retryable], ['rate_limited', 3000, true]);
    fake().server.inject({
      json: {
        errors: [{ message: 'Something broke', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
        data: null,
      },
    });
    const broken = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([broken.code, broken.retryable], ['platform_unavailable', true]);
    fake().server.inject({ status: 502, text: 'Bad Gateway' });
    const down = await rejection(fx.publisher.publish({ message: 'T' }, account(), [], {}, context()));
    assert.deepEqual([down.code, down.retryable], ['platform_unavailable', true]);
    assert.equal(fake().posts.length, 0);
  });

  it('an answer lost after Hashnode published is found among the publication’s posts: never twice', async () => {
    for (const draft of [false, true]) {
      let cut = true;
      const original = globalThis.fetch;
      globalThis.fetch = async (input, init) => {
        const response = await original(input, init);
        if (cut && String(init?.body ?? '').includes(draft ? 'createDraft' : 'publishPost')) {
          cut = false;
          throw new TypeError('socket hang up');
        }
        return response;
      };
      try {
        const ctx = context({ idempotencyKey: `lost-${draft}:hn-1` });
        await rejection(fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], { draft }, ctx));
        const again = await fx.publisher.publish({ message: 'Lost once\nx' }, account(), [], { draft }, ctx);
        const saved = fake().posts.filter((p) => p.kind === (draft ? 'draft' : 'post'));
        assert.equal(saved.length, 1);
        assert.equal(again.platformPostId, saved[0]!.id);
      } finally {
        globalThis.fetch = original;
      }
    }
    assert.equal(
      fake()
        .operations()
        .filter((o) => o === 'publication').length,
      2,
    );
  });

  it('verifies the token and picks the publication by id, by host, or the first one', async () => {
    const first = await fx.publisher.verifyCredentials(account(''));
    assert.deepEqual(first, {
      name: 'Alice writes',
      username: 'alice',
      platformAccountId: blog.id,
      avatarUrl: 'https://cdn.hashnode.com/res/hashnode/image/upload/alice.png',
    });
    assert.equal((await fx.publisher.verifyCredentials(account(team.id))).platformAccountId, team.id);
    assert.equal(
      (await fx.publisher.verifyCredentials(account('https://blog.team.example/'))).name,
      'Team blog',
    );
    const other = await rejection(fx.publisher.verifyCredentials(account('65f0dddddddddddddddddddd')));
    assert.equal(other.code, 'target_unreachable');
    const none = await rejection(fx.publisher.verifyCredentials(account('', 'hn-token-bob')));
    assert.equal(none.code, 'target_unreachable');
    const refused = await rejection(fx.publisher.verifyCredentials(account('', 'nope')));
    assert.equal(refused.code, 'credentials_invalid');
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
const target = {
  id: 'hn-9',
  platform: 'hashnode',
  platformAccountId: blog.id,
  credentials: { personalAccessToken: 'k' },
};

describe('Hashnode validation', () => {
  it('title up to 250 characters; images only, fetched by public URL', () => {
    assert.deepEqual(validateHashnodePost({ message: 'é'.repeat(250) }, target, [], {}).errors, []);
    assert.equal(
      validateHashnodePost({ message: 'é'.repeat(251) }, target, [], {}).errors[0]?.code,
      'title_too_long',
    );
    const local = validateHashnodePost(
      { message: 'T' },
      target,
      [info('http://127.0.0.1:3000/media/a.png')],
      {},
    );
    assert.deepEqual(
      local.warnings.map((w) => w.code),
      ['media_url_not_public'],
    );
    const pdf = validateHashnodePost(
      { message: 'T' },
      target,
      [info('https://x/a.pdf', 'application/pdf')],
      {},
    );
    assert.equal(pdf.errors[0]?.code, 'media_type_unsupported');
  });

  it('options: at most 5 tags, subtitle up to 150, an http(s) canonical URL, draft as a boolean', () => {
    assert.equal(hashnodeOptionsSchema.safeParse({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] }).success, false);
    assert.equal(hashnodeOptionsSchema.safeParse({ subtitle: 'x'.repeat(151) }).success, false);
    assert.equal(hashnodeOptionsSchema.safeParse({ canonicalUrl: 'ftp://x' }).success, false);
    assert.deepEqual(hashnodeOptionsSchema.parse({ draft: 'false' }), { draft: false });
    assert.equal(hashnodeOptionsSchema.safeParse({ status: 'draft' }).success, false);
  });
});
