import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { account, context, png, rejection, startWordPress, wordpressFixture } from './setup.ts';

const fx = wordpressFixture();

describe('WordPress publishing', () => {
  it('publishes the first line as the title and the rest as HTML, with Basic auth', async () => {
    const result = await fx.publisher.publish(
      {
        message:
          '# Launch day\n\nWe **shipped** it.\nSee [the notes](https://example.com/notes).\n\n<script>x()</script>',
      },
      account(fx.fake),
      [],
      {},
      context(),
    );
    const post = fx.fake.posts[0]!;
    assert.equal(post.title, 'Launch day');
    assert.equal(post.status, 'publish');
    assert.equal(
      post.content,
      '<p>We <strong>shipped</strong> it.<br>\nSee <a href="https://example.com/notes">the notes</a>.</p>\n<p>&lt;script&gt;x()&lt;/script&gt;</p>\n',
    );
    assert.deepEqual(result, { platformPostId: String(post.id), url: `${fx.fake.url}/launch-day/` });
    const request = fx.fake.calls('/wp/v2/posts', 'POST')[0]!;
    const expected = Buffer.from('alice:abcd EFGH 1234 ijkl MNOP 5678').toString('base64');
    assert.equal(request.headers.authorization, `Basic ${expected}`);
    assert.ok(request.path.endsWith('/wp-json/wp/v2/posts'));
  });

  it('takes the title option, saves a draft, and finds or creates categories and tags by name', async () => {
    const fake = fx.fake;
    fake.terms.push({ id: 500, taxonomy: 'category', name: 'News & Notes', slug: 'news', count: 3 });
    const result = await fx.publisher.publish(
      { message: 'All of this is the body.' },
      account(fake, 'eve', 'eeee eeee eeee eeee eeee eeee'),
      [],
      {
        title: 'A chosen title',
        status: 'draft',
        categories: ['news & notes', 'Releases'],
        tags: ['launch'],
        excerpt: 'Short',
      },
      context(),
    );
    const post = fake.posts[0]!;
    assert.equal(post.title, 'A chosen title');
    assert.equal(post.content, '<p>All of this is the body.</p>\n');
    assert.equal(post.status, 'draft');
    assert.equal(post.excerpt, 'Short');
    const releases = fake.terms.find((t) => t.name === 'Releases')!;
    const launch = fake.terms.find((t) => t.name === 'launch')!;
    assert.deepEqual(post.categories, [500, releases.id]);
    assert.deepEqual(post.tags, [launch.id]);
    assert.equal(result.url, `${fake.url}/?p=${post.id}`);
    assert.equal(fake.calls('/wp/v2/categories', 'POST').length, 1, 'only the missing category is created');
  });

  it('uploads images in order: the first is the featured image, the others follow the text with alt text', async () => {
    await fx.publisher.publish(
      { message: 'Gallery\nThree pictures.' },
      account(fx.fake),
      [png('one.png', 'First'), png('two.png', 'Second "quoted"'), png('three.png')],
      {},
      context(),
    );
    const [one, two, three] = fx.fake.media;
    assert.deepEqual(
      fx.fake.media.map((m) => [m.filename, m.altText]),
      [
        ['one.png', 'First'],
        ['two.png', 'Second "quoted"'],
        ['three.png', ''],
      ],
    );
    const post = fx.fake.posts[0]!;
    assert.equal(post.featuredMedia, one!.id);
    assert.equal(
      post.content,
      `<p>Three pictures.</p>\n\n<figure class="wp-block-image"><img src="${two!.sourceUrl}" alt="Second &quot;quoted&quot;"></figure>\n<figure class="wp-block-image"><img src="${three!.sourceUrl}" alt=""></figure>`,
    );
  });

  it('classifies refusals: login, role, term creation, file type', async () => {
    const wrong = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, account(fx.fake, 'alice', 'nope'), [], {}, context()),
    );
    assert.equal(wrong.code, 'credentials_invalid');
    assert.match(wrong.message, /incorrect_password/);
    assert.doesNotMatch(wrong.message, /abcd/);

    const contributor = account(fx.fake, 'carl', 'cccc cccc cccc cccc cccc cccc');
    const publishing = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, contributor, [], {}, context()),
    );
    assert.equal(publishing.code, 'content_rejected');
    assert.equal(publishing.retryable, false);
    assert.match(publishing.message, /draft/);
    const draft = await fx.publisher.publish(
      { message: 'T\nx' },
      contributor,
      [],
      { status: 'draft' },
      context(),
    );
    assert.ok(draft.platformPostId);

    const subscriber = account(fx.fake, 'sam', 'ssss ssss ssss ssss ssss ssss');
    const refused = await rejection(fx.publisher.publish({ message: 'T\nx' }, subscriber, [], {}, context()));
    assert.equal(refused.code, 'credentials_invalid');

    const category = await rejection(
      fx.publisher.publish(
        { message: 'T\nx' },
        account(fx.fake),
        [],
        { categories: ['Brand new'] },
        context(),
      ),
    );
    assert.equal(category.code, 'content_rejected');
    assert.match(category.message, /create it on the site first/);

    const gif = { ...png('a.png'), contentType: 'image/gif', filename: 'a.gif' };
    fx.fake.server.inject({
      path: /media/,
      status: 500,
      json: {
        code: 'rest_upload_sideload_error',
        message: 'Sorry, you are not allowed to upload this file type.',
        data: { status: 500 },
      },
    });
    const media = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, account(fx.fake), [gif], {}, context()),
    );
    assert.equal(media.code, 'media_rejected');
    assert.equal(media.retryable, false);
  });

  it('answers 429 as rate_limited with Retry-After, and 5xx as retryable', async () => {
    fx.fake.rateLimit({ retryAfterSeconds: 7 });
    const limited = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, account(fx.fake), [], {}, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryAfterMs, 7000);
    fx.fake.server.inject({
      status: 503,
      headers: { 'retry-after': '2' },
      text: 'Briefly unavailable for scheduled maintenance.',
    });
    const down = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, account(fx.fake), [], {}, context()),
    );
    assert.equal(down.code, 'platform_unavailable');
    assert.equal(down.retryable, true);
    assert.equal(down.retryAfterMs, 2000);
  });

  it('a site without a REST API, and one that redirects, are target_unreachable', async () => {
    const missing = {
      ...account(fx.fake),
      credentials: { ...account(fx.fake).credentials, siteUrl: `${fx.fake.server.url}/elsewhere` },
    };
    const notFound = await rejection(fx.publisher.publish({ message: 'T\nx' }, missing, [], {}, context()));
    assert.equal(notFound.code, 'target_unreachable');
    fx.fake.server.inject({
      times: 2,
      status: 301,
      headers: { location: 'https://www.example.com/wp-json/wp/v2/posts' },
    });
    const moved = await rejection(
      fx.publisher.publish({ message: 'T\nx' }, account(fx.fake), [], {}, context()),
    );
    assert.equal(moved.code, 'target_unreachable');
    assert.match(moved.message, /redirects .* to https:\/\/www\.example\.com/);
    assert.equal(fx.fake.posts.length, 0);
  });

  it('an answer lost after WordPress created the post is found by its title: never a second post', async () => {
    let cut = true;
    const lossy = async (input: string | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (cut && init?.method === 'POST' && String(input).endsWith('/wp/v2/posts')) {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    const ctx = context({ accountHostFetch: lossy, idempotencyKey: 'post-lost:wp-1' });
    const first = await rejection(
      fx.publisher.publish({ message: 'Once only\nbody' }, account(fx.fake), [], {}, ctx),
    );
    assert.equal(first.code, 'network_error');
    assert.equal(fx.fake.posts.length, 1);
    const again = await fx.publisher.publish({ message: 'Once only\nbody' }, account(fx.fake), [], {}, ctx);
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(again.platformPostId, String(fx.fake.posts[0]!.id));

    // A resumed publish (another process may have sent it) looks first, too.
    const resumed = await fx.publisher.publish(
      { message: 'Once only\nbody' },
      account(fx.fake),
      [],
      {},
      context({ resumed: { since: new Date(Date.now() - 60_000) } }),
    );
    assert.equal(resumed.platformPostId, again.platformPostId);
    assert.equal(fx.fake.posts.length, 1);
  });

  it('a retry after a failed post reuses the images it already uploaded', async () => {
    fx.fake.server.inject({ path: /\/posts$/, status: 502, text: 'Bad gateway' });
    const ctx = context({ idempotencyKey: 'post-retry:wp-1' });
    await rejection(fx.publisher.publish({ message: 'Pics\nx' }, account(fx.fake), [png()], {}, ctx));
    await fx.publisher.publish({ message: 'Pics\nx' }, account(fx.fake), [png()], {}, ctx);
    assert.equal(fx.fake.media.length, 1);
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(fx.fake.posts[0]!.featuredMedia, fx.fake.media[0]!.id);
  });
});

describe('WordPress sites of other shapes', () => {
  it('falls back to ?rest_route= on a site with plain permalinks, and remembers it', async () => {
    const fake = await startWordPress({ plainPermalinks: true, path: '/blog' });
    try {
      const { WordPressPublisher } = await import('../../../src/platforms/wordpress/index.ts');
      const publisher = new WordPressPublisher();
      const profile = await publisher.verifyCredentials(account(fake));
      assert.equal(profile.platformAccountId, fake.url);
      await publisher.publish(
        { message: 'Plain\nlinks' },
        account(fake),
        [png()],
        { tags: ['x'] },
        context(),
      );
      assert.equal(fake.posts[0]!.title, 'Plain');
      const wpJson = fake.server.requests.filter((r) => r.path.includes('/wp-json'));
      assert.equal(wpJson.length, 1, 'only the first call tried /wp-json');
      assert.ok(fake.server.requests.every((r) => r.path.startsWith('/blog/')));
    } finally {
      await fake.close();
    }
  });
});
