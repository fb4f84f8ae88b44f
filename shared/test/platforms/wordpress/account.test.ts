import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { wordpressManifest } from '../../../src/platforms/wordpress/manifest.ts';
import { wordpressOptionsSchema } from '../../../src/platforms/wordpress/options.ts';
import { validateWordPressPost } from '../../../src/platforms/wordpress/validate.ts';
import { account, context, rejection, startWordPress, wordpressFixture } from './setup.ts';

const fx = wordpressFixture();

describe('WordPress account', () => {
  it('verifies the application password and names the account after the site', async () => {
    const profile = await fx.publisher.verifyCredentials(account(fx.fake));
    assert.deepEqual(profile, {
      name: 'Alice & Co',
      username: 'alice',
      platformAccountId: fx.fake.url,
      avatarUrl: `${fx.fake.url}/avatar-96.png`,
    });
    const call = fx.fake.calls('/wp/v2/users/me')[0]!;
    assert.equal(call.query.get('context'), 'edit');
  });

  it('refuses a wrong password, an unknown user, a subscriber and a site without application passwords', async () => {
    for (const [user, pass] of [
      ['alice', 'wrong'],
      ['nobody', 'abcd'],
      ['sam', 'ssss ssss ssss ssss ssss ssss'],
    ] as const) {
      const error = await rejection(fx.publisher.verifyCredentials(account(fx.fake, user, pass)));
      assert.equal(error.code, 'credentials_invalid', user);
    }
    const closed = await startWordPress({ applicationPasswordsDisabled: true });
    try {
      const error = await rejection(fx.publisher.verifyCredentials(account(closed)));
      assert.equal(error.code, 'credentials_invalid');
    } finally {
      await closed.close();
    }
  });

  it('offers the site categories and tags, most used first, as option choices', async () => {
    fx.fake.terms.push(
      { id: 600, taxonomy: 'category', name: 'Rare', slug: 'rare', count: 1 },
      { id: 601, taxonomy: 'category', name: 'Tips & Tricks', slug: 'tips', count: 9 },
      { id: 602, taxonomy: 'post_tag', name: 'launch', slug: 'launch', count: 2 },
    );
    const choices = await fx.publisher.optionChoices(account(fx.fake), 'categories', {}, context());
    assert.deepEqual(
      choices.map((c) => c.value),
      ['Tips & Tricks', 'Rare', 'Uncategorized'],
    );
    assert.deepEqual(await fx.publisher.optionChoices(account(fx.fake), 'tags', {}, context()), [
      { value: 'launch', label: 'launch' },
    ]);
    assert.deepEqual(await fx.publisher.optionChoices(account(fx.fake), 'status', {}, context()), []);
  });

  it('collects comments per post; a trashed or deleted post is gone', async () => {
    const ids = [];
    for (const title of ['One', 'Two', 'Three']) {
      ids.push(
        (await fx.publisher.publish({ message: title }, account(fx.fake), [], {}, context())).platformPostId,
      );
    }
    fx.fake.posts[0]!.comments = 4;
    fx.fake.trash(Number(ids[1]));
    fx.fake.trash(Number(ids[2]), true);
    const metrics = await fx.publisher.metrics(
      ids.map((platformPostId) => ({ platformPostId })),
      account(fx.fake),
      context(),
    );
    assert.deepEqual(Object.fromEntries(metrics), {
      [ids[0]!]: { state: 'ok', metrics: { comments: 4 } },
      [ids[1]!]: { state: 'gone' },
      [ids[2]!]: { state: 'gone' },
    });
    assert.deepEqual(wordpressManifest.analytics, { post: ['comments'], account: [] });
  });
});

const image = (contentType = 'image/png'): MediaInfo => ({
  key: 'k',
  filename: 'a',
  contentType,
  size: 10,
  kind: contentType.startsWith('video') ? 'video' : 'image',
  url: 'https://media.example/a',
});
const credentials = { siteUrl: 'https://blog.example', username: 'a', applicationPassword: 'p' };
const target = { id: 'wp-9', platform: 'wordpress', platformAccountId: 'x', credentials };

describe('WordPress validation', () => {
  it('needs a title; counts it in UTF-8 bytes as the manifest does', () => {
    const empty = validateWordPressPost({ message: '\n\n' }, target, [], {});
    assert.deepEqual(
      empty.errors.map((e) => [e.code, e.path]),
      [['title_required', 'message']],
    );
    const long = 'é'.repeat(32_768);
    const tooLong = validateWordPressPost({ message: long }, target, [], {});
    assert.equal(tooLong.errors[0]?.code, 'title_too_long');
    const count = wordpressManifest.text.count({ message: long, hasMedia: false, options: {} });
    assert.deepEqual([count.used, count.limit], [65_536, 65_535]);
    const option = validateWordPressPost({ message: 'x' }, target, [], { title: long });
    assert.equal(option.errors[0]?.path, 'accountOptions.wp-9.title');
  });

  it('takes images only, up to 20, and checks the credentials shape', () => {
    const video = validateWordPressPost({ message: 'T' }, target, [image('video/mp4')], {});
    assert.deepEqual(
      video.errors.map((e) => [e.code, e.path]),
      [['media_type_unsupported', 'media[0]']],
    );
    const many = validateWordPressPost({ message: 'T' }, target, Array(21).fill(image()), {});
    assert.deepEqual(
      many.errors.map((e) => e.code),
      ['too_many_media'],
    );
    const bad = validateWordPressPost(
      { message: 'T' },
      { ...target, credentials: { siteUrl: 'ftp://x' } },
      [],
      {},
    );
    assert.equal(bad.errors[0]?.code, 'credentials_invalid');
  });

  it('options: status publish or draft, names as a list or one comma-separated string', () => {
    assert.deepEqual(
      wordpressOptionsSchema.parse({ categories: 'News, releases ,news', tags: ['a', ' b '] }),
      {
        categories: ['News', 'releases'],
        tags: ['a', 'b'],
      },
    );
    assert.equal(wordpressOptionsSchema.safeParse({ status: 'future' }).success, false);
    assert.equal(wordpressOptionsSchema.safeParse({ visibility: 'public' }).success, false);
  });
});
