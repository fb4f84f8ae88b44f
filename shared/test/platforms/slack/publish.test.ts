import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withRetry } from '../../../src/publish/retry.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { memoryMedia, patternBytes } from '../memory-media.ts';
import { channelAccount, context, slackFixture } from './setup.ts';

const fx = slackFixture();

describe('Slack publishing', () => {
  it('posts plain text escaped, with mrkdwn off, and returns the ts and permalink', async () => {
    const result = await fx.publisher.publish(
      { message: 'Q&A: <b> & *not bold*' },
      fx.account,
      [],
      {},
      context(),
    );
    const [message] = fx.fake.messages;
    assert.equal(message?.text, 'Q&amp;A: &lt;b&gt; &amp; *not bold*');
    assert.equal(message?.mrkdwn, 'false');
    assert.equal(message?.channel, 'C0GENERAL1');
    assert.equal(result.platformPostId, message?.ts);
    assert.equal(
      result.url,
      `https://fakeworkspace.slack.com/archives/C0GENERAL1/p${message!.ts.replace('.', '')}`,
    );
    const call = fx.fake.calls('chat.postMessage')[0]!;
    assert.match(String(call.headers.authorization), /^Bearer xoxb-/);
    assert.match(String(call.headers['content-type']), /application\/x-www-form-urlencoded/);
  });

  it('sends mrkdwn as written, link previews and a thread when asked', async () => {
    const root = await fx.publisher.publish({ message: 'root' }, fx.account, [], {}, context());
    await fx.publisher.publish(
      { message: '*bold* <https://example.com|link>' },
      fx.account,
      [],
      { mrkdwn: true, unfurlLinks: true, threadTs: root.platformPostId },
      context(),
    );
    const reply = fx.fake.messages[1]!;
    assert.equal(reply.text, '*bold* <https://example.com|link>');
    assert.equal(reply.mrkdwn, 'true');
    assert.equal(reply.unfurlLinks, 'true');
    assert.equal(reply.threadTs, root.platformPostId);
  });

  it('puts thread parts in the thread of the first message', async () => {
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
      {
        ...context(),
        replyTo: { parent: two, root },
      },
    );
    assert.deepEqual(
      fx.fake.messages.map((m) => [m.text, m.threadTs]),
      [
        ['one', undefined],
        ['two', root.platformPostId],
        ['three', root.platformPostId],
      ],
    );
  });

  it('uploads files to the upload URL and shares them with the text as initial_comment', async () => {
    const photo = patternBytes(4096, 3);
    const media = [
      { ...memoryMedia(photo, { filename: 'photo.png', contentType: 'image/png' }), altText: 'A chart' },
      memoryMedia(patternBytes(300, 5), { filename: 'report', contentType: 'application/pdf' }),
    ];
    const result = await fx.publisher.publish({ message: 'See <these>' }, fx.account, media, {}, context());
    const [message] = fx.fake.messages;
    assert.equal(message?.text, 'See &lt;these&gt;');
    assert.deepEqual(
      message?.files.map((f) => [f.filename, f.length, f.altTxt, f.bytes?.length]),
      [
        ['photo.png', 4096, 'A chart', 4096],
        ['report.pdf', 300, undefined, 300],
      ],
    );
    assert.deepEqual(new Uint8Array(message!.files[0]!.bytes!), photo);
    assert.equal(result.platformPostId, message?.ts, 'the share message ts, read back with files.info');
    assert.match(result.url ?? '', /\/archives\/C0GENERAL1\/p\d+/);
    // The upload URL never receives the bot token.
    const upload = fx.fake.server.requests.find((r) => r.path.startsWith('/upload/'))!;
    assert.equal(upload.headers.authorization, undefined);
    const complete = fx.fake.calls('files.completeUploadExternal')[0]!;
    const body = complete.body as Record<string, string>;
    assert.equal(body.channel_id, 'C0GENERAL1');
    assert.deepEqual(
      JSON.parse(body.files!).map((f: { title: string }) => f.title),
      ['photo.png', 'report'],
    );
  });

  it('without files:read the file id stands for the message', async () => {
    const account = channelAccount(fx.fake, 'C0GENERAL1', ['chat:write', 'files:write']);
    const media = [memoryMedia(patternBytes(10, 1), { filename: 'a.png', contentType: 'image/png' })];
    const result = await fx.publisher.publish({ message: 'x' }, account, media, {}, context());
    assert.match(result.platformPostId, /^F[0-9A-F]+$/);
    assert.equal(result.url, undefined);
    assert.equal(fx.fake.messages[0]?.files[0]?.id, result.platformPostId);
  });

  it('classifies Slack errors', async () => {
    const notMember = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, platformAccountId: 'C0RANDOM01' },
        [],
        {},
        context(),
      ),
    );
    assert.equal(notMember.code, 'target_unreachable');
    assert.match(notMember.message, /not_in_channel.*invite/);
    assert.equal(notMember.retryable, false);
    const gone = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, platformAccountId: 'C0NOTHERE1' },
        [],
        {},
        context(),
      ),
    );
    assert.equal(gone.code, 'target_unreachable');
    const archived = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, platformAccountId: 'C0OLDSTUFF' },
        [],
        {},
        context(),
      ),
    );
    assert.match(archived.message, /is_archived/);

    const token = fx.account.credentials.botToken as string;
    fx.fake.revokeToken(token);
    const revoked = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(revoked.code, 'needs_reconnect');
    assert.match(revoked.message, /token_revoked/);
    const unknown = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        { ...fx.account, credentials: { botToken: 'xoxb-nope' } },
        [],
        {},
        context(),
      ),
    );
    assert.equal(unknown.code, 'needs_reconnect');
    assert.match(unknown.message, /invalid_auth/);

    const tooLong = await rejection(
      fx.publisher.publish({ message: 'a'.repeat(40_001) }, channelAccount(fx.fake), [], {}, context()),
    );
    assert.equal(tooLong.code, 'content_rejected');
    assert.match(tooLong.message, /msg_too_long/);
    const noScope = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        channelAccount(fx.fake, 'C0GENERAL1', ['channels:read']),
        [],
        {},
        context(),
      ),
    );
    assert.equal(noScope.code, 'needs_reconnect');
    assert.match(noScope.message, /missing_scope/);
  });

  it('honours 429 Retry-After, and a retry posts once', async () => {
    fx.fake.rateLimitNext({ retryAfterSeconds: 2, method: 'chat.postMessage' });
    const limited = await rejection(fx.publisher.publish({ message: 'x' }, fx.account, [], {}, context()));
    assert.equal(limited.code, 'rate_limited');
    assert.equal(limited.retryable, true);
    assert.equal(limited.retryAfterMs, 2000);
    assert.equal(fx.fake.messages.length, 0);

    fx.fake.rateLimitNext({ retryAfterSeconds: 0, method: 'chat.postMessage' });
    const result = await withRetry(
      () => fx.publisher.publish({ message: 'after the limit' }, fx.account, [], {}, context()),
      fastRetries(),
    );
    assert.equal(fx.fake.messages.length, 1);
    assert.equal(result.platformPostId, fx.fake.messages[0]!.ts);
  });

  it('declares one message a second per channel', () => {
    assert.deepEqual(fx.publisher.rateLimits?.(fx.account), [
      { scope: 'channel', key: 'C0GENERAL1', limit: 1, windowMs: 1000 },
    ]);
    assert.equal(fx.publisher.concurrencyKey?.(fx.account), fx.fake.team.id);
  });
});

describe('Slack credentials check', () => {
  it('names the channel and the workspace', async () => {
    const profile = await fx.publisher.verifyCredentials(fx.account, { signal: AbortSignal.timeout(5000) });
    assert.deepEqual(profile, {
      name: '#general',
      username: 'Fake Workspace',
      platformAccountId: 'C0GENERAL1',
    });
  });

  it('refuses a channel the app is not in, an archived one and a channel name', async () => {
    for (const channel of ['C0RANDOM01', 'C0OLDSTUFF', 'general']) {
      const error = await rejection(
        fx.publisher.verifyCredentials({ ...fx.account, platformAccountId: channel }),
      );
      assert.equal(error.code, 'target_unreachable', channel);
    }
  });

  it('accepts a token without channels:read, naming the channel by its id', async () => {
    const account = channelAccount(fx.fake, 'C0GENERAL1', ['chat:write']);
    const profile = await fx.publisher.verifyCredentials(account);
    assert.equal(profile.name, 'C0GENERAL1');
  });

  it('names the channel by its id when conversations.info is not served', async () => {
    fx.fake.server.inject({
      path: /conversations\.info$/,
      status: 404,
      json: { ok: false, error: 'unknown_method' },
    });
    assert.equal((await fx.publisher.verifyCredentials(fx.account)).name, 'C0GENERAL1');
  });

  it('refuses a revoked token as needs_reconnect', async () => {
    fx.fake.revokeToken(fx.account.credentials.botToken as string);
    const error = await rejection(fx.publisher.verifyCredentials(fx.account));
    assert.equal(error.code, 'needs_reconnect');
  });
});
