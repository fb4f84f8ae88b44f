import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matrixConfigFromEnv } from '../../../src/platforms/matrix/config.ts';
import { MatrixPublisher, matrixModule } from '../../../src/platforms/matrix/index.ts';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeMatrix, startFakeMatrix } from '../../fakes/matrix.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { context, matrixFixture } from './setup.ts';

const fx = matrixFixture();

describe('Matrix publishing', () => {
  it('sends the text as m.text with its HTML, under a transaction id from the idempotency key', async () => {
    const result = await fx.publisher.publish(
      { message: 'Hello <team>\n\nhttps://example.com' },
      fx.account,
      [],
      {},
      context({ idempotencyKey: 'post-1:m1' }),
    );
    const [event] = fx.fake.events;
    assert.deepEqual(event?.content, {
      msgtype: 'm.text',
      body: 'Hello <team>\n\nhttps://example.com',
      format: 'org.matrix.custom.html',
      formatted_body: '<p>Hello &lt;team&gt;</p><p><a href="https://example.com">https://example.com</a></p>',
    });
    assert.equal(event?.type, 'm.room.message');
    assert.equal(event?.sender, fx.bot.userId);
    assert.equal(result.platformPostId, event?.eventId);
    assert.equal(
      result.url,
      `https://matrix.to/#/${encodeURIComponent(fx.room.id)}/${encodeURIComponent(event!.eventId)}?via=${fx.fake.serverName}`,
    );
    const put = fx.fake.calls(/\/send\//, 'PUT')[0]!;
    assert.match(put.path, /\/send\/m\.room\.message\/pw[A-Za-z0-9_-]{32}\.0$/);
    assert.match(String(put.headers.authorization), /^Bearer syt_/);
  });

  it('a resend with the same key is deduplicated by the homeserver: one event, the same id', async () => {
    const first = await fx.publisher.publish(
      { message: 'once' },
      fx.account,
      [],
      {},
      context({ idempotencyKey: 'k-dup' }),
    );
    const again = await fx.publisher.publish(
      { message: 'once' },
      fx.account,
      [],
      {},
      context({ idempotencyKey: 'k-dup' }),
    );
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.events.length, 1);
    assert.equal(fx.fake.calls(/\/send\//, 'PUT').length, 2);
    // Another key is another event; another token does not share the transaction.
    await fx.publisher.publish(
      { message: 'once' },
      fx.account,
      [],
      {},
      context({ idempotencyKey: 'k-other' }),
    );
    const other = fx.fake.addUser('other', [fx.room.id]);
    await fx.publisher.publish(
      { message: 'once' },
      { ...fx.account, credentials: fx.fake.credentials(other.accessToken) },
      [],
      {},
      context({ idempotencyKey: 'k-dup' }),
    );
    assert.equal(fx.fake.events.length, 3);
  });

  it('uploads files to the content repository and sends them as m.image / m.video / m.file events', async () => {
    const png = patternBytes(2048, 4);
    const media = [
      { ...memoryMedia(png, { filename: 'chart.png', contentType: 'image/png' }), altText: 'A rising chart' },
      memoryMedia(patternBytes(500, 2), { filename: 'clip.mp4', contentType: 'video/mp4' }),
      memoryMedia(patternBytes(300, 3), { filename: 'report.pdf', contentType: 'application/pdf' }),
    ];
    const result = await fx.publisher.publish(
      { message: 'Quarterly' },
      fx.account,
      media,
      { notice: true },
      context(),
    );
    assert.deepEqual(
      fx.fake.uploads.map((u) => [u.path, u.filename, u.contentType, u.bytes.length]),
      [
        ['/_matrix/media/v3/upload', 'chart.png', 'image/png', 2048],
        ['/_matrix/media/v3/upload', 'clip.mp4', 'video/mp4', 500],
        ['/_matrix/media/v3/upload', 'report.pdf', 'application/pdf', 300],
      ],
    );
    assert.deepEqual(new Uint8Array(fx.fake.uploads[0]!.bytes), png);
    assert.deepEqual(
      fx.fake.events.map((e) => [e.content.msgtype, e.content.body, e.content.url, e.content.info]),
      [
        ['m.notice', 'Quarterly', undefined, undefined],
        ['m.image', 'A rising chart', fx.fake.uploads[0]!.uri, { mimetype: 'image/png', size: 2048 }],
        ['m.video', 'clip.mp4', fx.fake.uploads[1]!.uri, { mimetype: 'video/mp4', size: 500 }],
        ['m.file', 'report.pdf', fx.fake.uploads[2]!.uri, { mimetype: 'application/pdf', size: 300 }],
      ],
    );
    assert.equal(result.platformPostId, fx.fake.events[0]!.eventId);
    assert.deepEqual(
      fx.fake.events.map((e) => e.txnId.slice(-2)),
      ['.0', '.1', '.2', '.3'],
    );
  });

  it('media alone: the first file event is the post', async () => {
    const media = [memoryMedia(patternBytes(10, 1), { filename: 'a.png', contentType: 'image/png' })];
    const result = await fx.publisher.publish({ message: '' }, fx.account, media, {}, context());
    assert.equal(fx.fake.events.length, 1);
    assert.equal(result.platformPostId, fx.fake.events[0]!.eventId);
  });

  it('thread parts join the thread of the first message', async () => {
    const root = await fx.publisher.publish({ message: 'one' }, fx.account, [], {}, context());
    const two = await fx.publisher.publish(
      { message: 'two' },
      fx.account,
      [],
      {},
      {
        ...context(),
        replyTo: { parent: root, root },
      },
    );
    await fx.publisher.publish(
      { message: 'three' },
      fx.account,
      [],
      {},
      { ...context(), replyTo: { parent: two, root } },
    );
    assert.deepEqual(fx.fake.events[2]!.content['m.relates_to'], {
      rel_type: 'm.thread',
      event_id: root.platformPostId,
      is_falling_back: true,
      'm.in_reply_to': { event_id: two.platformPostId },
    });
  });

  it('resolves a room alias', async () => {
    await fx.publisher.publish(
      { message: 'by alias' },
      { ...fx.account, platformAccountId: fx.room.alias! },
      [],
      {},
      context(),
    );
    assert.equal(fx.fake.events[0]!.roomId, fx.room.id);
  });

  it('classifies homeserver errors', async () => {
    const stranger = fx.fake.addUser('stranger');
    const notMember = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, credentials: fx.fake.credentials(stranger.accessToken) },
        [],
        {},
        context(),
      ),
    );
    assert.equal(notMember.code, 'target_unreachable');
    assert.match(notMember.message, /M_FORBIDDEN/);
    const badToken = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, credentials: fx.fake.credentials('syt_unknown') },
        [],
        {},
        context(),
      ),
    );
    assert.equal(badToken.code, 'needs_reconnect');
    assert.match(badToken.message, /M_UNKNOWN_TOKEN/);
    const tooBig = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(70_000) }, fx.account, [], {}, context()),
    );
    assert.equal(tooBig.code, 'content_rejected');
    assert.match(tooBig.message, /M_TOO_LARGE/);
    const bigFile = [
      memoryMedia(patternBytes(64 * 1024 + 1, 1), { filename: 'big.png', contentType: 'image/png' }),
    ];
    const refusedFile = await rejection(
      fx.publisher.publish({ message: '' }, fx.account, bigFile, {}, context()),
    );
    assert.equal(refusedFile.code, 'media_rejected');
    const noAlias = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, platformAccountId: `#nope:${fx.fake.serverName}` },
        [],
        {},
        context(),
      ),
    );
    assert.equal(noAlias.code, 'target_unreachable');
  });

  it('waits out M_LIMIT_EXCEEDED for retry_after_ms, and the retry posts once', async () => {
    fx.fake.rateLimit({ retryAfterMs: 1500 });
    const limited = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryAfterMs, 2000, 'the Retry-After header (whole seconds) wins over the body');
    fx.fake.server.inject({
      path: /\/send\//,
      status: 429,
      json: { errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: 20 },
    });
    const key = context();
    const posted = await withRetry(
      () => fx.publisher.publish({ message: 'after' }, fx.account, [], {}, key),
      fastRetries(),
    );
    assert.equal(fx.fake.events.length, 1);
    assert.equal(posted.platformPostId, fx.fake.events[0]!.eventId);
  });
});

describe('Matrix credentials check', () => {
  it('names the room and the account, resolving an alias to the room id', async () => {
    const profile = await fx.publisher.verifyCredentials({
      ...fx.account,
      platformAccountId: fx.room.alias!,
    });
    assert.deepEqual(profile, {
      name: 'Announcements',
      username: fx.bot.userId,
      platformAccountId: fx.room.id,
    });
  });

  it('refuses a room the account has not joined, or may not post in', async () => {
    const other = fx.fake.addRoom({ name: 'Elsewhere' });
    const notJoined = await rejection(
      fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: other.id }),
    );
    assert.equal(notJoined.code, 'target_unreachable');
    assert.match(notJoined.message, /not a member/);
    other.members.set(fx.bot.userId, 'invite');
    const invited = await rejection(
      fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: other.id }),
    );
    assert.match(invited.message, /accept the invitation/);
    other.members.set(fx.bot.userId, 'join');
    other.powerLevels.events_default = 50;
    const muted = await rejection(
      fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: other.id }),
    );
    assert.match(muted.message, /power level 0, messages need 50/);
    other.powerLevels.users[fx.bot.userId] = 50;
    assert.equal(
      (await fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: other.id })).name,
      'Elsewhere',
    );
  });

  it('reads the member event where /joined_rooms is not served', async () => {
    fx.fake.server.inject({
      path: /\/joined_rooms$/,
      status: 404,
      json: { errcode: 'M_UNRECOGNIZED', error: 'Unrecognized request' },
    });
    assert.equal((await fx.publisher.verifyCredentials(fx.account)).name, 'Announcements');
    assert.equal(fx.fake.calls(/\/state\/m\.room\.member\//).length, 1);
  });

  it('refuses an unknown token as needs_reconnect', async () => {
    const error = await rejection(
      fx.publisher.verifyCredentials({ ...fx.account, credentials: fx.fake.credentials('syt_nope') }),
    );
    assert.equal(error.code, 'needs_reconnect');
  });
});

describe('Matrix homeservers', () => {
  it('follows .well-known delegation from a server name to its client API', async () => {
    const home = await startFakeMatrix();
    const name = await startFakeMatrix({ serverName: home.serverName });
    try {
      name.delegateTo = home.url;
      // The server name answers no client API itself.
      name.server.inject({
        path: /\/_matrix\/client\/versions/,
        status: 404,
        json: { errcode: 'M_UNRECOGNIZED' },
      });
      const room = home.addRoom({ name: 'Delegated' });
      const bot = home.addUser('bot', [room.id]);
      const publisher = new MatrixPublisher(matrixConfigFromEnv({}));
      const account = {
        id: 'm2',
        platform: 'matrix',
        platformAccountId: room.id,
        credentials: { homeserverUrl: `${name.url}/`, accessToken: bot.accessToken },
      };
      assert.equal((await publisher.verifyCredentials(account)).name, 'Delegated');
      await publisher.publish({ message: 'via delegation' }, account, [], {}, context());
      assert.equal(home.events.length, 1);
    } finally {
      await home.close();
      await name.close();
    }
  });

  it('reads the upload limit from the authenticated media config on v1.11, the legacy one before', async () => {
    const media = [
      {
        key: 'k',
        filename: 'big.png',
        contentType: 'image/png',
        size: 70_000,
        kind: 'image' as const,
        url: 'https://m/x',
      },
    ];
    const outcome = await fx.publisher.validate({ message: '' }, fx.account, media, {});
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['media_too_large'],
    );
    assert.equal(fx.fake.calls(/\/_matrix\/client\/v1\/media\/config$/).length, 1);

    const old = await startFakeMatrix({ versions: ['r0.6.1', 'v1.1', 'v1.10'], maxUploadBytes: 100 });
    try {
      const bot = old.addUser('bot');
      const result = await new MatrixPublisher(matrixConfigFromEnv({})).validate(
        { message: '' },
        { ...fx.account, credentials: old.credentials(bot.accessToken) },
        media,
        {},
      );
      assert.deepEqual(
        result.errors.map((e) => e.code),
        ['media_too_large'],
      );
      assert.equal(old.calls(/\/_matrix\/media\/v3\/config$/).length, 1);
    } finally {
      await old.close();
    }
  });

  it('on a v1.11 server asks the client-API upload first, remembers a 404 and uses the legacy path', async () => {
    const account = (fake: FakeMatrix) => {
      const room = fake.addRoom();
      const bot = fake.addUser('bot', [room.id]);
      return {
        id: 'm3',
        platform: 'matrix',
        platformAccountId: room.id,
        credentials: fake.credentials(bot.accessToken),
      };
    };
    const file = () => [memoryMedia(patternBytes(10, 1), { filename: 'a.png', contentType: 'image/png' })];
    const synapse = await startFakeMatrix();
    const clientOnly = await startFakeMatrix({ legacyMedia: false, clientMediaUpload: true });
    const older = await startFakeMatrix({
      versions: ['v1.1', 'v1.10'],
      legacyMedia: false,
      clientMediaUpload: true,
    });
    try {
      const publisher = new MatrixPublisher(matrixConfigFromEnv({}));
      const onSynapse = account(synapse);
      await publisher.publish({ message: '' }, onSynapse, file(), {}, context());
      await publisher.publish({ message: '' }, onSynapse, file(), {}, context());
      assert.deepEqual(
        synapse.calls(/\/upload$/).map((r) => [r.path, synapse.uploads.some((u) => u.path === r.path)]),
        [
          ['/_matrix/client/v1/media/upload', false],
          ['/_matrix/media/v3/upload', true],
          ['/_matrix/media/v3/upload', true],
        ],
      );
      await publisher.publish({ message: '' }, account(clientOnly), file(), {}, context());
      assert.deepEqual(
        clientOnly.uploads.map((u) => u.path),
        ['/_matrix/client/v1/media/upload'],
      );
      await publisher.publish({ message: '' }, account(older), file(), {}, context());
      assert.deepEqual(
        older.uploads.map((u) => u.path),
        ['/_matrix/client/v1/media/upload'],
      );
      assert.equal(
        older.calls(/\/upload$/)[0]!.path,
        '/_matrix/media/v3/upload',
        'older servers: the legacy path first',
      );
    } finally {
      await Promise.all([synapse.close(), clientOnly.close(), older.close()]);
    }
  });

  it('refuses a malformed cache setting at start', () => {
    assert.throws(
      () => matrixModule.create({ MATRIX_SERVER_CACHE_TTL_MS: 'soon' }),
      /MATRIX_SERVER_CACHE_TTL_MS/,
    );
  });
});
