import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { defaultLemmyConfig, LemmyPublisher, lemmyManifest } from '../../../src/platforms/lemmy/index.ts';
import { lemmyOptionsSchema } from '../../../src/platforms/lemmy/options.ts';
import { checkOptionChoices } from '../../../src/platforms/option-choices.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeLemmy, startFakeLemmy } from '../../fakes/lemmy.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection } from '../../support/platform-testing.ts';

/** The `community` option (contract C, `choicesFrom`): subscriptions as choices, posting elsewhere. */
const fx = useFixture(
  async () => ({
    fake: await startFakeLemmy({
      users: [
        { username: 'lea', password: 'correct horse' },
        { username: 'max', password: 'pw' },
      ],
      communities: [
        { id: 7, name: 'technology', title: 'Technology', subscribedBy: ['lea'] },
        { id: 8, name: 'pics', host: 'lemmy.example', subscribedBy: ['lea', 'max'] },
        { id: 9, name: 'announcements', restricted: true },
        { id: 10, name: 'cooking', title: 'Cooking' },
        // More subscriptions than one page of 50 holds.
        ...Array.from({ length: 51 }, (_, i) => ({ id: 100 + i, name: `club_${i}`, subscribedBy: ['lea'] })),
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

const account = (credentials?: Record<string, string>): PlatformAccount => ({
  id: 'lm-1',
  platform: 'lemmy',
  platformAccountId: `technology@${fx.fake.host}`,
  credentials: credentials ?? fx.fake.credentials('lea', 'correct horse'),
});
let n = 0;
const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(10_000),
  idempotencyKey: `post-${++n}:lm-1`,
  logger: silentLogger,
  ...overrides,
});
const choices = (target = account()) => fx.publisher.optionChoices(target, 'community', {}, context());

describe('Lemmy communities as choices', () => {
  it('offers the communities the user is subscribed to, page by page, as name@host', async () => {
    const offered = await choices();
    assert.equal(offered.length, 53);
    assert.deepEqual(offered.slice(0, 3), [
      { value: `technology@${fx.fake.host}`, label: `Technology (technology@${fx.fake.host})` },
      // A remote community is named by its actor_id's host, as the account's community is.
      { value: 'pics@lemmy.example', label: 'pics (pics@lemmy.example)' },
      { value: `club_0@${fx.fake.host}`, label: `club_0 (club_0@${fx.fake.host})` },
    ]);
    const lists = fx.fake.calls('/api/v3/community/list', 'GET');
    assert.deepEqual(
      lists.map((r) => [r.query.get('type_'), r.query.get('limit'), r.query.get('page')]),
      [
        ['Subscribed', '50', '1'],
        ['Subscribed', '50', '2'],
      ],
    );
    assert.match(String(lists[0]!.headers.authorization), /^Bearer eyJ\./);
    const max = await choices(account(fx.fake.credentials('max', 'pw')));
    assert.deepEqual(
      max.map((c) => c.value),
      ['pics@lemmy.example'],
    );
    assert.deepEqual(await fx.publisher.optionChoices(account(), 'title', {}, context()), []);
  });

  it('logs in again for the choices when the session expired; a stale jwt alone needs reconnecting', async () => {
    await choices();
    fx.fake.expireSessions();
    assert.equal((await choices()).length, 53);
    assert.equal(fx.fake.calls('/api/v3/user/login').length, 2);
    const stale = account({ instanceUrl: fx.fake.url, username: 'lea', jwt: 'eyJ.stale' });
    const error = await rejection(
      new LemmyPublisher(defaultLemmyConfig).optionChoices(stale, 'community', {}, context()),
    );
    assert.equal(error.code, 'needs_reconnect');
    fx.fake.failWith(502, { path: /^\/api\/v3\/community\/list$/ });
    assert.equal((await rejection(choices())).code, 'platform_unavailable');
  });

  it('publishes to the chosen community instead of the account’s, resolved alike', async () => {
    await fx.publisher.publish(
      { message: 'Cat pictures' },
      account(),
      [],
      { community: 'pics@lemmy.example' },
      context(),
    );
    // Not subscribed, typed by hand: `!name` and a bare local name resolve as the account's do.
    await fx.publisher.publish(
      { message: 'Soup recipes' },
      account(),
      [],
      { community: '!cooking' },
      context(),
    );
    await fx.publisher.publish({ message: 'Own community' }, account(), [], {}, context());
    assert.deepEqual(
      fx.fake.posts.map((p) => [p.name, p.communityId]),
      [
        ['Cat pictures', 8],
        ['Soup recipes', 10],
        ['Own community', 7],
      ],
    );
    assert.deepEqual(
      fx.fake.calls('/api/v3/community').map((r) => r.query.get('name')),
      ['pics@lemmy.example', 'cooking', 'technology'],
    );
    const unknown = await rejection(
      fx.publisher.publish({ message: 'Hello there' }, account(), [], { community: 'nowhere' }, context()),
    );
    assert.equal(unknown.code, 'target_unreachable');
    const restricted = await rejection(
      fx.publisher.publish(
        { message: 'Hello there' },
        account(),
        [],
        { community: 'announcements' },
        context(),
      ),
    );
    assert.equal(restricted.code, 'target_unreachable');
    assert.match(restricted.message, /only_mods_can_post_in_community/);
  });

  it('a resend looks for the earlier post in the chosen community', async () => {
    const options = { community: 'pics@lemmy.example' };
    const first = await fx.publisher.publish({ message: 'Only once' }, account(), [], options, context());
    const again = await new LemmyPublisher(defaultLemmyConfig).publish(
      { message: 'Only once' },
      account(),
      [],
      options,
      context({ resumed: { since: new Date(Date.now() - 1000) } }),
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.calls('/api/v3/post/list')[0]!.query.get('community_id'), '8');
  });

  it('declares the option with choices from the platform that still accept a typed community', async () => {
    const field = lemmyManifest.options.find((o) => o.name === 'community');
    assert.equal(field?.type, 'text');
    assert.deepEqual(field?.choicesFrom, { allowCustom: true });
    const ok = (community: string) => lemmyOptionsSchema.safeParse({ community }).success;
    for (const good of ['pics@lemmy.example', '!pics@lemmy.example', 'cooking', ' tech@host:8536 '])
      assert.equal(ok(good), true, good);
    for (const bad of ['', 'two words', 'a@b@c', '!!pics', 'pics@host/path'])
      assert.equal(ok(bad), false, bad);
    // A community outside the user's subscriptions is not refused as not offered.
    const outcome = await checkOptionChoices({
      publisher: fx.publisher,
      account: account(),
      fields: lemmyManifest.options,
      options: { community: 'cooking' },
      load: async () => {
        throw new Error('allowCustom fields are not checked against the choices');
      },
    });
    assert.deepEqual(outcome, { errors: [], warnings: [] });
  });
});
