import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { splitPost } from '../../../src/platforms/lemmy/content.ts';
import { defaultLemmyConfig, LemmyPublisher, lemmyManifest } from '../../../src/platforms/lemmy/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeLemmy, startFakeLemmy } from '../../fakes/lemmy.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const fx = useFixture(
  async () => ({
    fake: await startFakeLemmy({
      users: [
        { username: 'lea', password: 'correct horse' },
        { username: 'twofa', password: 'pw', totp: true },
      ],
      communities: [
        { id: 7, name: 'technology', title: 'Technology', subscribers: 1234 },
        { id: 8, name: 'pics', host: 'lemmy.example', subscribers: 5 },
        { id: 9, name: 'announcements', restricted: true },
      ],
    }),
    publisher: new LemmyPublisher(defaultLemmyConfig),
  }),
  {
    stop: (f: { fake: FakeLemmy }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
      f.publisher = new LemmyPublisher(defaultLemmyConfig);
    },
  },
);

const account = (community = 'technology', credentials?: Record<string, string>): PlatformAccount => ({
  id: 'lm-1',
  platform: 'lemmy',
  platformAccountId: community.includes('@') ? community : `${community}@${fx.fake.host}`,
  credentials: credentials ?? fx.fake.credentials('lea', 'correct horse'),
});
let n = 0;
const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(10_000),
  idempotencyKey: `post-${++n}:lm-1`,
  logger: silentLogger,
  ...overrides,
});
const png = () => memoryMedia(new Uint8Array(samplePng()), { filename: 'cat.png', contentType: 'image/png' });

describe('Lemmy', () => {
  it('logs in, resolves the community and posts the first line as title, the rest as Markdown body', async () => {
    const refreshed: Record<string, unknown>[] = [];
    const result = await fx.publisher.publish(
      { message: 'Big news\n\nThe **details** follow.' },
      account(),
      [],
      {},
      context({ onCredentialsRefreshed: (c) => void refreshed.push(c) }),
    );
    const post = fx.fake.posts[0]!;
    assert.deepEqual(
      { name: post.name, body: post.body, url: post.url, community: post.communityId },
      {
        name: 'Big news',
        body: 'The **details** follow.',
        url: null,
        community: 7,
      },
    );
    assert.deepEqual(result, { platformPostId: String(post.id), url: `${fx.fake.url}/post/${post.id}` });
    const create = fx.fake.calls('/api/v3/post', 'POST')[0]!;
    assert.match(String(create.headers.authorization), /^Bearer eyJ\./);
    assert.equal(fx.fake.calls('/api/v3/community')[0]!.query.get('name'), 'technology');
    assert.equal(typeof refreshed[0]?.jwt, 'string', 'the session token is handed back to be stored');
  });

  it('uses the title and url options; the whole message is the body', async () => {
    await fx.publisher.publish(
      { message: 'Line one\nLine two' },
      account(),
      [],
      { title: 'A better title', url: 'https://example.com/article', nsfw: true },
      context(),
    );
    const post = fx.fake.posts[0]!;
    assert.deepEqual(
      [post.name, post.body, post.url, post.nsfw],
      ['A better title', 'Line one\nLine two', 'https://example.com/article', true],
    );
  });

  it('uploads images to pict-rs: the first becomes the post url, the others go in the body', async () => {
    await fx.publisher.publish(
      { message: 'Cats' },
      account(),
      [png(), { ...png(), altText: 'Second cat' }],
      {},
      context(),
    );
    const uploads = fx.fake.calls('/pictrs/image', 'POST');
    assert.equal(uploads.length, 2);
    assert.ok(uploads[0]!.files['images[]']);
    const post = fx.fake.posts[0]!;
    const [first, second] = [...fx.fake.images.keys()];
    assert.equal(post.url, `${fx.fake.url}/pictrs/image/${first}`);
    assert.equal(post.body, `![Second cat](${fx.fake.url}/pictrs/image/${second})`);
    assert.deepEqual(fx.fake.images.get(first!)!.bytes, samplePng());
  });

  it('logs in again once when the session expired; a jwt-only account needs reconnecting', async () => {
    await fx.publisher.publish({ message: 'First post' }, account(), [], {}, context());
    fx.fake.expireSessions();
    await fx.publisher.publish({ message: 'Second post' }, account(), [], {}, context());
    assert.equal(fx.fake.calls('/api/v3/user/login').length, 2);
    assert.equal(fx.fake.posts.length, 2);
    const jwtOnly = account('technology', { instanceUrl: fx.fake.url, username: 'lea', jwt: 'eyJ.stale' });
    // A fresh process: no session of its own, only the stored (stale) token and no password.
    const fresh = new LemmyPublisher(defaultLemmyConfig);
    const error = await rejection(fresh.publish({ message: 'Third post' }, jwtOnly, [], {}, context()));
    assert.equal(error.code, 'needs_reconnect');
  });

  it('maps refusals: wrong password, 2FA, unknown or restricted community, rate limit, 5xx', async () => {
    const wrong = await rejection(
      fx.publisher.publish(
        { message: 'Hello there' },
        account('technology', fx.fake.credentials('lea', 'nope')),
        [],
        {},
        context(),
      ),
    );
    assert.equal(wrong.code, 'credentials_invalid');
    assert.match(wrong.message, /incorrect_login/);
    const totp = await rejection(
      fx.publisher.verifyCredentials(account('technology', fx.fake.credentials('twofa', 'pw'))),
    );
    assert.equal(totp.code, 'credentials_invalid');
    const unknown = await rejection(
      fx.publisher.publish({ message: 'Hello there' }, account('nowhere'), [], {}, context()),
    );
    assert.equal(unknown.code, 'target_unreachable');
    const restricted = await rejection(
      fx.publisher.publish({ message: 'Hello there' }, account('announcements'), [], {}, context()),
    );
    assert.equal(restricted.code, 'target_unreachable');
    assert.match(restricted.message, /only_mods_can_post_in_community/);
    fx.fake.rateLimit({ path: /^\/api\/v3\/post$/ });
    const limited = await rejection(
      fx.publisher.publish({ message: 'Hello there' }, account(), [], {}, context()),
    );
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryable, true);
    fx.fake.failWith(502, { path: /^\/api\/v3\/post$/ });
    const down = await rejection(
      fx.publisher.publish({ message: 'Hello there' }, account(), [], {}, context()),
    );
    assert.equal(down.code, 'platform_unavailable');
  });

  it('validates titles and bodies as Lemmy does; the counter counts the body', async () => {
    const codes = async (message: string, options = {}) =>
      (await fx.publisher.validate({ message }, account(), [], options)).errors.map((e) => e.code);
    assert.deepEqual(await codes('Hi'), ['title_required']);
    // The long-form rules (contract C: title 200): a longer first line is title_too_long at
    // `message`, a longer title option at its own path; never cut.
    const long = `${'word '.repeat(60)}end\nmore`;
    const tooLong = await fx.publisher.validate({ message: long }, account(), [], {});
    assert.deepEqual(
      tooLong.errors.map((e) => [e.code, e.path]),
      [['title_too_long', 'message']],
    );
    const option = await fx.publisher.validate({ message: 'Body' }, account(), [], {
      title: 't'.repeat(201),
    });
    assert.deepEqual(
      option.errors.map((e) => [e.code, e.path]),
      [['title_too_long', `accountOptions.${account().id}.title`]],
    );
    assert.deepEqual(splitPost('# Launch day\n\nThe body', {}), { title: 'Launch day', body: 'The body' });
    assert.deepEqual(await codes(`${'t'.repeat(200)}\n${'b'.repeat(10_000)}`), []);
    assert.deepEqual(await codes(`Title\n${'b'.repeat(10_001)}`), ['text_too_long']);
    assert.deepEqual(await codes('x'.repeat(300), { title: 'Short title' }), []);
    assert.equal(lemmyManifest.text.count({ message: 'Title\nabc', hasMedia: false, options: {} }).used, 3);
    const pdf = await fx.publisher.validate(
      { message: 'A file' },
      account(),
      [
        {
          key: 'k',
          filename: 'a.pdf',
          contentType: 'application/pdf',
          size: 1,
          kind: 'document',
          url: 'https://x/a',
        },
      ],
      {},
    );
    assert.deepEqual(
      pdf.errors.map((e) => e.code),
      ['media_type_unsupported'],
    );
  });

  it('a resend finds the post an earlier send created', async () => {
    const first = await fx.publisher.publish({ message: 'Only once please' }, account(), [], {}, context());
    const again = await new LemmyPublisher(defaultLemmyConfig).publish(
      { message: 'Only once please' },
      account(),
      [],
      {},
      context({ resumed: { since: new Date(Date.now() - 1000) } }),
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.posts.length, 1);
  });

  it('posts the first comment as a comment, verifies the community, reads metrics', async () => {
    const post = await fx.publisher.publish({ message: 'Discuss this' }, account(), [], {}, context());
    const comment = await fx.publisher.comment!(post, 'First!', account(), {}, context());
    assert.equal(fx.fake.comments[0]!.content, 'First!');
    assert.equal(comment.url, `${fx.fake.url}/comment/${comment.platformPostId}`);
    const profile = await fx.publisher.verifyCredentials(account('pics@lemmy.example'));
    assert.deepEqual(profile, {
      name: 'pics',
      username: '!pics@lemmy.example',
      platformAccountId: 'pics@lemmy.example',
    });
    const metrics = await fx.publisher.metrics(
      [{ platformPostId: post.platformPostId }],
      account(),
      context(),
    );
    assert.deepEqual(metrics.get(post.platformPostId), { state: 'ok', metrics: { likes: 1, comments: 1 } });
    const gone = await fx.publisher.metrics([{ platformPostId: '99999' }], account(), context());
    assert.deepEqual(gone.get('99999'), { state: 'gone' });
    assert.deepEqual(await fx.publisher.accountMetrics(account(), context()), { followers: 1234 });
  });
});
