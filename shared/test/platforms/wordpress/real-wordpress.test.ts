import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseAllowedPrivateHosts } from '../../../src/http/address-policy.ts';
import { createSafeFetch } from '../../../src/http/safe-fetch.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { WordPressPublisher } from '../../../src/platforms/wordpress/index.ts';
import {
  type RealWordPress,
  realWordPressMissing,
  startRealWordPress,
} from '../../support/real-wordpress.ts';
import { context, png, rejection } from './setup.ts';

/**
 * The publisher against a real WordPress (Debian's package on PHP's built-in server and MariaDB),
 * installed fresh for this file. Skipped, saying why, only where PHP, WordPress or a database
 * cannot be had on the machine; `.ci/run` installs them.
 */
const missing = await realWordPressMissing();
const skip = missing ? `needs a real WordPress: ${missing}` : false;

// biome-ignore lint/suspicious/noExplicitAny: WordPress REST answers, read field by field
type Json = Record<string, any>;

describe('WordPress publisher against a real WordPress', { skip }, () => {
  let wp: RealWordPress;
  const publisher = new WordPressPublisher();
  const as = (user: string, password = wp.passwords[user]!): PlatformAccount => ({
    id: `real-${user}`,
    platform: 'wordpress',
    platformAccountId: wp.url,
    credentials: { siteUrl: wp.url, username: user, applicationPassword: password },
  });
  /** Reads through the REST API as the administrator. */
  const read = async (route: string, init: RequestInit = {}): Promise<Json> => {
    const auth = Buffer.from(`admin:${wp.passwords.admin}`).toString('base64');
    const response = await fetch(`${wp.url}/wp-json${route}`, {
      ...init,
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json', ...init.headers },
    });
    return (await response.json()) as Json;
  };

  before(async () => {
    wp = await startRealWordPress();
  });
  after(() => wp?.stop());

  it('connects with an application password', async () => {
    const profile = await publisher.verifyCredentials(as('author'));
    assert.deepEqual(
      { name: profile.name, username: profile.username, platformAccountId: profile.platformAccountId },
      { name: 'Postwave Test Blog', username: 'author', platformAccountId: wp.url },
    );
    assert.match(wp.version, /^\d+\.\d+/);
    const wrong = await rejection(publisher.verifyCredentials(as('author', 'aaaa bbbb cccc dddd eeee ffff')));
    assert.equal(wrong.code, 'credentials_invalid');
  });

  it('publishes a post: title, HTML, featured and inline images with alt text, categories, tags, excerpt', async () => {
    const result = await publisher.publish(
      {
        message:
          '# Real launch\n\nMarkdown **bold** and [a link](https://example.com).\n\n<img src=x onerror=alert(1)>',
      },
      as('admin'),
      [png('cover.png', 'The cover'), png('inline.png', 'Inline picture')],
      { categories: ['Releases'], tags: ['launch', 'Postwave'], excerpt: 'In short' },
      context(),
    );
    const post = await read(`/wp/v2/posts/${result.platformPostId}?context=edit`);
    assert.equal(post.title.raw, 'Real launch');
    assert.equal(post.status, 'publish');
    assert.equal(post.excerpt.raw, 'In short');
    assert.match(
      post.content.raw,
      /<p>Markdown <strong>bold<\/strong> and <a href="https:\/\/example\.com">a link<\/a>\.<\/p>/,
    );
    assert.match(post.content.raw, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(
      post.content.raw,
      /<figure class="wp-block-image"><img src="[^"]+inline[^"]*\.png" alt="Inline picture"><\/figure>/,
    );
    const featured = await read(`/wp/v2/media/${post.featured_media}`);
    assert.equal(featured.alt_text, 'The cover');
    const categories = await read(`/wp/v2/categories?include=${post.categories.join(',')}`);
    assert.deepEqual(
      categories.map((c: Json) => c.name),
      ['Releases'],
    );
    const tags = await read(`/wp/v2/tags?include=${post.tags.join(',')}&orderby=include`);
    assert.deepEqual(
      tags.map((t: Json) => t.name),
      ['launch', 'Postwave'],
    );
    assert.equal(result.url, post.link);
    const page = await fetch(result.url!);
    assert.equal(page.status, 200);
    // Posting again with the same names finds the terms instead of creating them again.
    await publisher.publish(
      { message: 'Second\nx' },
      as('admin'),
      [],
      { categories: ['releases'] },
      context(),
    );
    assert.equal((await read('/wp/v2/categories?search=Releases')).length, 1);
  });

  it('saves a draft, and goes through the SSRF-safe fetch when the site is allowed', async () => {
    const safe = createSafeFetch({ allowPrivateHosts: parseAllowedPrivateHosts(new URL(wp.url).host) });
    const result = await publisher.publish(
      { message: 'Draft title\nNot yet.' },
      as('author'),
      [],
      { status: 'draft' },
      context({ accountHostFetch: safe }),
    );
    const post = await read(`/wp/v2/posts/${result.platformPostId}?context=edit`);
    assert.equal(post.status, 'draft');
    const refused = await rejection(
      publisher.publish(
        { message: 'T\nx' },
        as('author'),
        [],
        {},
        context({ accountHostFetch: createSafeFetch() }),
      ),
    );
    assert.equal(refused.code, 'target_unreachable');
  });

  it("classifies the site's own refusals: a contributor publishing, an author creating a category", async () => {
    const contributor = await rejection(
      publisher.publish({ message: 'T\nx' }, as('contributor'), [], {}, context()),
    );
    assert.equal(contributor.code, 'content_rejected');
    assert.equal(contributor.status, 403);
    const draft = await publisher.publish(
      { message: 'T\nx' },
      as('contributor'),
      [],
      { status: 'draft' },
      context(),
    );
    assert.ok(draft.platformPostId);
    const category = await rejection(
      publisher.publish({ message: 'T\nx' }, as('author'), [], { categories: ['Authors cannot'] }, context()),
    );
    assert.equal(category.code, 'content_rejected');
  });

  it('offers categories, counts comments, and reports a trashed post gone', async () => {
    const choices = await publisher.optionChoices(as('author'), 'categories', {}, context());
    assert.ok(choices.some((c) => c.value === 'Uncategorized'));
    const { platformPostId: id } = await publisher.publish(
      { message: 'Discuss\nx' },
      as('author'),
      [],
      {},
      context(),
    );
    await read('/wp/v2/comments', {
      method: 'POST',
      body: JSON.stringify({ post: Number(id), content: 'Nice' }),
    });
    const counted = await publisher.metrics([{ platformPostId: id }], as('author'), context());
    assert.deepEqual(counted.get(id), { state: 'ok', metrics: { comments: 1 } });
    await read(`/wp/v2/posts/${id}`, { method: 'DELETE' });
    const gone = await publisher.metrics([{ platformPostId: id }], as('author'), context());
    assert.deepEqual(gone.get(id), { state: 'gone' });
  });

  it('finds the post of an attempt whose answer was lost instead of posting it twice', async () => {
    let cut = true;
    const lossy = async (input: string | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (cut && init?.method === 'POST' && String(input).endsWith('/wp/v2/posts')) {
        cut = false;
        throw new TypeError('socket hang up');
      }
      return response;
    };
    const ctx = context({ accountHostFetch: lossy, idempotencyKey: 'real-lost:wp' });
    const title = `Only once ${Date.now()}`;
    await rejection(publisher.publish({ message: `${title}\nbody` }, as('author'), [], {}, ctx));
    const again = await publisher.publish({ message: `${title}\nbody` }, as('author'), [], {}, ctx);
    const found = await read(`/wp/v2/posts?search=${encodeURIComponent(title)}&status=publish,draft`);
    assert.equal(found.length, 1);
    assert.equal(String(found[0].id), again.platformPostId);
  });
});

describe('WordPress publisher against a real WordPress with plain permalinks', { skip }, () => {
  let wp: RealWordPress;
  before(async () => {
    wp = await startRealWordPress({ plainPermalinks: true });
  });
  after(() => wp?.stop());

  it('reaches the REST API at ?rest_route= when /wp-json is not routed', async () => {
    const publisher = new WordPressPublisher();
    const account: PlatformAccount = {
      id: 'plain',
      platform: 'wordpress',
      platformAccountId: wp.url,
      credentials: { siteUrl: `${wp.url}/`, username: 'author', applicationPassword: wp.passwords.author! },
    };
    const profile = await publisher.verifyCredentials(account);
    assert.equal(profile.platformAccountId, wp.url);
    const result = await publisher.publish(
      { message: 'Plain permalinks\nhello' },
      account,
      [png()],
      {},
      context(),
    );
    assert.match(result.url!, /\?p=\d+$/);
  });
});
