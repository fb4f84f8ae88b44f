import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { defaultMisskeyConfig, MisskeyPublisher } from '../../../src/platforms/misskey/index.ts';
import { misskeyOptionsSchema } from '../../../src/platforms/misskey/options.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeMisskey, startFakeMisskey } from '../../fakes/misskey.ts';
import { samplePng } from '../../fakes/sample-media.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const token = 'misskey-token-alice';
const fx = useFixture(
  async () => ({
    fake: await startFakeMisskey({
      tokens: {
        [token]: { id: '9alice', username: 'alice', name: 'Alice', followersCount: 42 },
        'read-only': { username: 'reader', permissions: ['read:account'] },
        suspended: { username: 'gone', suspended: true },
      },
      maxNoteTextLength: 120,
    }),
    publisher: new MisskeyPublisher(defaultMisskeyConfig),
  }),
  {
    stop: (f: { fake: FakeMisskey }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.notes.length = 0;
    },
  },
);

const account = (accessToken = token): PlatformAccount => ({
  id: 'mk-1',
  platform: 'misskey',
  platformAccountId: '9alice',
  credentials: fx.fake.credentials(accessToken),
});
let n = 0;
const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(10_000),
  idempotencyKey: `post-${++n}:mk-1`,
  logger: silentLogger,
  ...overrides,
});
const png = () => memoryMedia(new Uint8Array(samplePng()), { filename: 'dot.png', contentType: 'image/png' });

describe('Misskey publishing', () => {
  it('creates a public note with the token as `i`, returning its id and URL', async () => {
    const result = await fx.publisher.publish({ message: 'Hello Misskey' }, account(), [], {}, context());
    const note = fx.fake.notes[0]!;
    assert.deepEqual(
      { text: note.text, visibility: note.visibility, cw: note.cw },
      { text: 'Hello Misskey', visibility: 'public', cw: null },
    );
    assert.deepEqual(result, { platformPostId: note.id, url: `${fx.fake.url}/notes/${note.id}` });
    assert.equal((fx.fake.calls('notes/create')[0]!.body as { i: string }).i, token);
  });

  it('uploads files to the drive with alt text as comment, then attaches them in order', async () => {
    await fx.publisher.publish(
      { message: 'Pictures' },
      account(),
      [{ ...png(), altText: 'A dot' }, png()],
      { visibility: 'followers', contentWarning: 'eye strain' },
      context(),
    );
    const uploads = fx.fake.calls('drive/files/create');
    assert.deepEqual(
      uploads.map((u) => [
        (u.body as Record<string, string>).comment,
        (u.body as Record<string, string>).i,
        u.files.file?.type,
      ]),
      [
        ['A dot', token, 'image/png'],
        [undefined, token, 'image/png'],
      ],
    );
    const note = fx.fake.notes[0]!;
    assert.deepEqual(note.fileIds, [...fx.fake.files.keys()].slice(-2));
    assert.equal(note.visibility, 'followers');
    assert.equal(note.cw, 'eye strain');
    assert.deepEqual(fx.fake.files.get(note.fileIds[0]!)!.bytes, samplePng());
  });

  it('sends no text for a files-only note, and replies with replyId', async () => {
    const root = await fx.publisher.publish({ message: '' }, account(), [png()], {}, context());
    assert.equal(fx.fake.notes[0]!.text, null);
    await fx.publisher.publish(
      { message: 'reply' },
      account(),
      [],
      {},
      context({ replyTo: { parent: root, root } }),
    );
    assert.equal(fx.fake.notes[1]!.replyId, root.platformPostId);
  });

  it("validates against the instance's maxNoteTextLength (code points), cached per instance", async () => {
    const ok = await fx.publisher.validate({ message: '😀'.repeat(120) }, account(), [], {});
    assert.deepEqual(ok.errors, []);
    const long = await fx.publisher.validate({ message: 'a'.repeat(121) }, account(), [], {});
    assert.deepEqual(
      long.errors.map((e) => e.code),
      ['text_too_long'],
    );
    assert.match(long.errors[0]!.message, /120 characters/);
    assert.equal(fx.fake.calls('meta').length, 1, 'read once per instance and kept');
  });

  it('the content warning counts code points as Misskey does: 100 emoji fit, 101 characters do not', () => {
    const parse = (contentWarning: string) => misskeyOptionsSchema.safeParse({ contentWarning }).success;
    assert.equal(parse('😀'.repeat(100)), true);
    assert.equal(parse('a'.repeat(100)), true);
    assert.equal(parse('😀'.repeat(101)), false);
    assert.equal(parse('a'.repeat(101)), false);
  });

  it('maps errors: refused or under-permitted token → needs_reconnect, suspended → target_unreachable', async () => {
    const bad = await rejection(fx.publisher.publish({ message: 'x' }, account('nope'), [], {}, context()));
    assert.equal(bad.code, 'needs_reconnect');
    assert.match(bad.message, /AUTHENTICATION_FAILED/);
    const readOnly = await rejection(
      fx.publisher.publish({ message: 'x' }, account('read-only'), [], {}, context()),
    );
    assert.equal(readOnly.code, 'needs_reconnect');
    const suspended = await rejection(
      fx.publisher.publish({ message: 'x' }, account('suspended'), [], {}, context()),
    );
    assert.equal(suspended.code, 'target_unreachable');
    assert.equal(suspended.retryable, false);
  });

  it('rate limits are retryable with the reset time; 5xx is retryable; a refused note is not', async () => {
    fx.fake.rateLimit({ endpoint: 'notes/create', retryAfterSeconds: 3 });
    const limited = await rejection(fx.publisher.publish({ message: 'x' }, account(), [], {}, context()));
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryAfterMs, 3000);
    fx.fake.failWith(502, { endpoint: 'notes/create' });
    const down = await rejection(fx.publisher.publish({ message: 'x' }, account(), [], {}, context()));
    assert.equal(down.code, 'platform_unavailable');
    assert.equal(down.retryable, true);
    const tooLong = await rejection(
      fx.publisher.publish({ message: 'a'.repeat(200) }, account(), [], {}, context()),
    );
    assert.equal(tooLong.code, 'content_rejected');
    assert.equal(tooLong.retryable, false);
  });

  it('a resend finds the note an earlier send created instead of posting it twice', async () => {
    const first = await fx.publisher.publish({ message: 'only once' }, account(), [], {}, context());
    const resumed = await new MisskeyPublisher(defaultMisskeyConfig).publish(
      { message: 'only once' },
      account(),
      [],
      {},
      context({ resumed: { since: new Date(Date.now() - 1000) } }),
    );
    assert.equal(resumed.platformPostId, first.platformPostId);
    assert.equal(fx.fake.notes.length, 1);
    // A retry in the same process after a failed create looks first, finds nothing, then sends.
    const ctx = context();
    fx.fake.failWith(500, { endpoint: 'notes/create' });
    await rejection(fx.publisher.publish({ message: 'second' }, account(), [], {}, ctx));
    await fx.publisher.publish({ message: 'second' }, account(), [], {}, ctx);
    assert.equal(fx.fake.calls('users/notes').length, 2);
    assert.equal(fx.fake.notes.length, 2);
  });

  it('verifies credentials with /api/i', async () => {
    const profile = await fx.publisher.verifyCredentials(account());
    assert.deepEqual(profile, {
      name: 'Alice',
      username: `@alice@${new URL(fx.fake.url).host}`,
      platformAccountId: '9alice',
      avatarUrl: `${fx.fake.url}/avatar/9alice`,
    });
  });

  it('reads metrics from notes/show and followers from /api/i; a deleted note is gone', async () => {
    const posted = await fx.publisher.publish({ message: 'count me' }, account(), [], {}, context());
    const note = fx.fake.notes[0]!;
    note.reactions = { '👍': 3, ':heart:': 2 };
    note.renoteCount = 4;
    await fx.publisher.publish(
      { message: 'a reply' },
      account(),
      [],
      {},
      context({ replyTo: { parent: posted, root: posted } }),
    );
    const metrics = await fx.publisher.metrics([{ platformPostId: note.id }], account(), context());
    assert.deepEqual(metrics.get(note.id), { state: 'ok', metrics: { likes: 5, comments: 1, reposts: 4 } });
    fx.fake.deleteNote(note.id);
    assert.deepEqual(
      (await fx.publisher.metrics([{ platformPostId: note.id }], account(), context())).get(note.id),
      {
        state: 'gone',
      },
    );
    assert.deepEqual(await fx.publisher.accountMetrics(account(), context()), { followers: 42 });
  });
});
