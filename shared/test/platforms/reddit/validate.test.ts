import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import { redditKind } from '../../../src/platforms/reddit/kind.ts';
import { redditManifest } from '../../../src/platforms/reddit/manifest.ts';
import { validateRedditPost } from '../../../src/platforms/reddit/validate.ts';
import { redditFixture, subredditAccount } from './setup.ts';

const fx = redditFixture();

const png: MediaInfo = {
  url: 'https://media.example.test/a.png',
  filename: 'a.png',
  contentType: 'image/png',
  size: 1000,
  kind: 'image',
} as MediaInfo;
const mp4: MediaInfo = {
  ...png,
  url: 'https://media.example.test/v.mp4',
  filename: 'v.mp4',
  contentType: 'video/mp4',
  kind: 'video',
} as MediaInfo;

const codes = (issues: { code: string }[]) => issues.map((i) => i.code).sort();

describe('Reddit validation', () => {
  it('picks the kind from the post: media, a bare URL, else a text post', () => {
    assert.equal(redditKind('hello', []), 'self');
    assert.equal(redditKind(' https://example.com/a?b=1 ', []), 'link');
    assert.equal(redditKind('see https://example.com', []), 'self');
    assert.equal(redditKind('', [{ kind: 'image' }]), 'image');
    assert.equal(redditKind('', [{ kind: 'video' }]), 'video');
  });

  it('counts the body of a text post in characters, as validation does', () => {
    const count = (message: string, hasMedia = false) =>
      redditManifest.text.count({ message, hasMedia, options: {} });
    assert.deepEqual(count('héllo 👋'), { used: 7, limit: 40_000, unit: 'characters' });
    assert.equal(count('https://example.com').used, 0, 'a link post has no body');
    assert.equal(count('text', true).used, 0, 'a media post sends no body');
  });

  it('refuses a long title, a long body, two media, a wrong type and loose flair text', async () => {
    const outcome = await fx.publisher.validate({ message: 'x'.repeat(40_001) }, fx.account, [], {
      title: 't'.repeat(301),
      flairText: 'f'.repeat(65),
    });
    assert.deepEqual(codes(outcome.errors), [
      'flair_required_for_text',
      'flair_text_too_long',
      'text_too_long',
      'title_too_long',
    ]);
    const media = await fx.publisher.validate(
      { message: 'caption' },
      fx.account,
      [png, { ...png, contentType: 'image/webp' }],
      {
        title: 'Two',
      },
    );
    assert.deepEqual(codes(media.errors), ['media_type_unsupported', 'too_many_media']);
    assert.deepEqual(codes(media.warnings), ['text_not_sent']);
  });

  it('refuses a target that is not a subreddit name (no r/) before asking Reddit', async () => {
    // Contract C: `platformAccountId` is the subreddit name without `r/`; `r/postwave` would only
    // earn a "rules unavailable" warning and then fail at publish.
    for (const name of ['r/postwave', '/r/postwave', 'post wave', 'a']) {
      const outcome = await fx.publisher.validate({ message: 'Body' }, subredditAccount(fx.fake, name), [], {
        title: 'Hello',
      });
      assert.deepEqual(
        outcome.errors.map((e) => [e.code, e.path]),
        [['account_invalid', 'platformAccountId']],
        name,
      );
      assert.deepEqual(outcome.warnings, [], name);
    }
    assert.equal(fx.fake.server.requests.length, 0);
    for (const name of ['postwave', 'de', 'u_some-user', 'Ask_Reddit21']) {
      const outcome = validateRedditPost({ message: 'Body' }, subredditAccount(fx.fake, name), [], {
        title: 'Hello',
      });
      assert.deepEqual(outcome.errors, [], name);
    }
  });

  it('passes a good text post after reading the subreddit rules', async () => {
    const outcome = await fx.publisher.validate({ message: 'Body' }, fx.account, [], { title: 'Hello' });
    assert.deepEqual(outcome, { errors: [], warnings: [] });
    assert.equal(fx.fake.requestsTo('GET', /^\/r\/postwave\/about$/).length, 1);
    assert.equal(fx.fake.requestsTo('GET', /^\/api\/v1\/postwave\/post_requirements$/).length, 1);
    await fx.publisher.validate({ message: 'Again' }, fx.account, [], { title: 'Hello' });
    assert.equal(fx.fake.requestsTo('GET', /^\/r\/postwave\/about$/).length, 1, 'rules are cached');
  });

  it('refuses a kind the subreddit forbids', async () => {
    // Without post requirements the about page's rules still apply.
    fx.fake.server.inject({
      path: /post_requirements$/,
      status: 404,
      json: { message: 'Not Found', error: 404 },
    });
    const text = await fx.publisher.validate(
      { message: 'Body' },
      subredditAccount(fx.fake, 'linksonly'),
      [],
      { title: 'T' },
    );
    assert.deepEqual(codes(text.errors), ['post_kind_not_allowed']);
    assert.match(text.errors[0]!.message, /no text posts/);
    const link = await fx.publisher.validate(
      { message: 'https://example.com' },
      subredditAccount(fx.fake, 'textonly'),
      [],
      { title: 'T' },
    );
    assert.deepEqual(codes(link.errors), ['post_kind_not_allowed']);
    const image = await fx.publisher.validate({ message: '' }, subredditAccount(fx.fake, 'noimages'), [png], {
      title: 'T',
    });
    assert.deepEqual(codes(image.errors), ['post_kind_not_allowed']);
    assert.equal(image.errors[0]!.path, 'media');
    const video = await fx.publisher.validate({ message: '' }, subredditAccount(fx.fake, 'noimages'), [mp4], {
      title: 'T',
    });
    assert.match(video.errors[0]!.message, /no video posts/);
  });

  it('refuses a missing required flair, an unknown flair and text on a fixed flair', async () => {
    const account = subredditAccount(fx.fake, 'flairland');
    const missing = await fx.publisher.validate({ message: 'B' }, account, [], { title: 'T' });
    assert.deepEqual(codes(missing.errors), ['flair_required']);
    assert.equal(missing.errors[0]!.path, 'accountOptions.r1.flairId');
    const unknown = await fx.publisher.validate({ message: 'B' }, account, [], {
      title: 'T',
      flairId: 'nope',
    });
    assert.deepEqual(codes(unknown.errors), ['option_not_offered']);
    const fixed = await fx.publisher.validate({ message: 'B' }, account, [], {
      title: 'T',
      flairId: 'f-news-0001',
      flairText: 'My text',
    });
    assert.deepEqual(codes(fixed.errors), ['flair_text_not_editable']);
    const good = await fx.publisher.validate({ message: 'B' }, account, [], {
      title: 'T',
      flairId: 'f-free-0002',
      flairText: 'My text',
    });
    assert.deepEqual(good.errors, []);
  });

  it('offers the subreddit flairs as the flairId choices', async () => {
    const choices = await fx.publisher.optionChoices!(
      subredditAccount(fx.fake, 'flairland'),
      'flairId',
      {},
      {
        signal: AbortSignal.timeout(5000),
        logger: (await import('../../../src/logger.ts')).silentLogger,
      },
    );
    assert.deepEqual(choices, [
      { value: 'f-news-0001', label: 'News' },
      { value: 'f-free-0002', label: 'Discussion (editable)' },
    ]);
    const none = await fx.publisher.optionChoices!(
      fx.account,
      'flairId',
      {},
      {
        signal: AbortSignal.timeout(5000),
        logger: (await import('../../../src/logger.ts')).silentLogger,
      },
    );
    assert.deepEqual(none, [], 'a subreddit without post flair offers none');
  });

  it('warns instead of failing when the rules cannot be read', async () => {
    fx.fake.server.inject({ path: /\/about$/, status: 503, text: 'upstream' });
    const outcome = await fx.publisher.validate({ message: 'B' }, fx.account, [], { title: 'T' });
    assert.deepEqual(outcome.errors, []);
    assert.deepEqual(codes(outcome.warnings), ['subreddit_rules_unavailable']);
  });
});
