import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FakeBluesky } from '../../fakes/bluesky.ts';
import { paddedSample, sampleJpeg, sampleMp4, samplePng } from '../../fakes/sample-media.ts';
import { memoryMedia } from '../memory-media.ts';
import { account, alice, blueskyFixture, context, publisherFor, rejection, startBluesky } from './setup.ts';

const fx = blueskyFixture();

const jpeg = (name: string, size?: number) =>
  memoryMedia(new Uint8Array(size ? paddedSample(sampleJpeg(), size) : sampleJpeg()), {
    filename: name,
    contentType: 'image/jpeg',
  });

describe('Bluesky publishing', () => {
  it('posts text with facets and returns the at:// URI and bsky.app URL', async () => {
    const message = '👨‍👩‍👧 Hi @bob.test and @nobody.test, see https://example.com/a. #postwave';
    const result = await fx.publisher.publish({ message }, account(), [], { langs: ['en'] }, context());

    assert.equal(fx.fake.records.length, 1);
    const record = fx.fake.records[0]!;
    assert.equal(record.did, alice.did);
    assert.equal(result.platformPostId, `at://${alice.did}/app.bsky.feed.post/${record.rkey}`);
    assert.equal(result.url, `https://bsky.app/profile/alice.test/post/${record.rkey}`);
    assert.equal(record.value.$type, 'app.bsky.feed.post');
    assert.equal(record.value.text, message);
    assert.deepEqual(record.value.langs, ['en']);
    assert.ok(!Number.isNaN(Date.parse(record.value.createdAt as string)));
    // Byte offsets: the family emoji is 18 bytes, so "@bob.test" starts at byte 18 + " Hi " = 22.
    assert.deepEqual(record.value.facets, [
      {
        index: { byteStart: 22, byteEnd: 31 },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:bob456' }],
      },
      {
        index: { byteStart: 54, byteEnd: 75 },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a' }],
      },
      {
        index: { byteStart: 77, byteEnd: 86 },
        features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'postwave' }],
      },
    ]);
    assert.equal(record.value.embed, undefined);
  });

  it('uploads images as blobs and embeds them with alt texts', async () => {
    const media = [
      jpeg('a.jpg'),
      memoryMedia(new Uint8Array(samplePng()), { filename: 'b.png', contentType: 'image/png' }),
    ];
    await fx.publisher.publish(
      { message: 'Two pictures' },
      account(),
      media,
      { altTexts: ['A red dot'] },
      context(),
    );

    const uploads = fx.fake.calls('com.atproto.repo.uploadBlob');
    assert.deepEqual(
      uploads.map((u) => u.headers['content-type']),
      ['image/jpeg', 'image/png'],
    );
    assert.deepEqual(uploads[1]!.rawBody, samplePng());
    const embed = fx.fake.records[0]!.value.embed as {
      $type: string;
      images: { alt: string; image: { ref: { $link: string }; mimeType: string } }[];
    };
    assert.equal(embed.$type, 'app.bsky.embed.images');
    assert.deepEqual(
      embed.images.map((i) => [i.alt, i.image.mimeType, fx.fake.blobs.has(i.image.ref.$link)]),
      [
        ['A red dot', 'image/jpeg', true],
        ['', 'image/png', true],
      ],
    );
  });

  it('embeds one MP4 as app.bsky.embed.video', async () => {
    const video = memoryMedia(new Uint8Array(sampleMp4()), {
      filename: 'clip.mp4',
      contentType: 'video/mp4',
    });
    await fx.publisher.publish({ message: 'A clip' }, account(), [video], { altTexts: ['Waves'] }, context());
    const embed = fx.fake.records[0]!.value.embed as {
      $type: string;
      alt: string;
      video: { mimeType: string };
    };
    assert.equal(embed.$type, 'app.bsky.embed.video');
    assert.equal(embed.alt, 'Waves');
    assert.equal(embed.video.mimeType, 'video/mp4');
  });

  it('accepts an image of exactly 2,000,000 bytes; the PDS refuses 2,000,001 with BlobTooLarge', async () => {
    await fx.publisher.publish({ message: 'max' }, account(), [jpeg('max.jpg', 2_000_000)], {}, context());
    assert.equal(fx.fake.records.length, 1);

    const error = await rejection(
      fx.publisher.publish({ message: 'over' }, account(), [jpeg('over.jpg', 2_000_001)], {}, context()),
    );
    assert.equal(error.code, 'media_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /too large/);
    assert.equal(fx.fake.records.length, 1);
  });

  it('the PDS refuses 301 graphemes as InvalidRequest: content_rejected', async () => {
    const error = await rejection(
      fx.publisher.publish({ message: 'x'.repeat(301) }, account(), [], {}, context()),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /300 graphemes/);
    await fx.publisher.publish({ message: 'x'.repeat(299) + '👨‍👩‍👧' }, account(), [], {}, context());
    assert.equal(fx.fake.records.length, 1);
  });

  it('logs in once and reuses the session for later posts', async () => {
    await fx.publisher.publish({ message: 'one' }, account(), [], {}, context());
    await fx.publisher.publish({ message: 'two' }, account(), [], {}, context());
    await Promise.all([
      fx.publisher.publish({ message: 'three' }, account(), [], {}, context()),
      fx.publisher.publish({ message: 'four' }, account(), [], {}, context()),
    ]);
    assert.equal(fx.fake.calls('com.atproto.server.createSession').length, 1);
    assert.equal(fx.fake.records.length, 4);
  });

  it('refreshes an expired access token and carries on', async () => {
    await fx.publisher.publish({ message: 'before' }, account(), [], {}, context());
    fx.fake.expireAccessTokens();
    await fx.publisher.publish({ message: 'after' }, account(), [jpeg('a.jpg')], {}, context());

    assert.equal(fx.fake.calls('com.atproto.server.createSession').length, 1);
    assert.equal(fx.fake.calls('com.atproto.server.refreshSession').length, 1);
    assert.equal(fx.fake.records.length, 2);
    const refresh = fx.fake.calls('com.atproto.server.refreshSession')[0]!;
    const login = fx.fake.calls('com.atproto.server.createSession')[0]!;
    assert.notEqual(refresh.headers.authorization, undefined);
    assert.equal(login.headers.authorization, undefined);
  });

  it('logs in again when the refresh token has expired as well', async () => {
    await fx.publisher.publish({ message: 'before' }, account(), [], {}, context());
    fx.fake.expireAccessTokens();
    fx.fake.expireRefreshTokens();
    await fx.publisher.publish({ message: 'after' }, account(), [], {}, context());
    assert.equal(fx.fake.calls('com.atproto.server.createSession').length, 2);
    assert.equal(fx.fake.records.length, 2);
  });

  it('wrong app password is credentials_invalid, without the password in the message', async () => {
    const error = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        account({ handle: 'alice.test', appPassword: 'wrong-secret' }),
        [],
        {},
        context(),
      ),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.equal(error.retryable, false);
    assert.equal(error.status, 401);
    assert.match(error.message, /Invalid identifier or password/);
    assert.doesNotMatch(JSON.stringify(error.toJSON()), /wrong-secret/);
  });

  it('a taken-down account is target_unreachable', async () => {
    const error = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        account({ handle: 'gone.test', appPassword: 'gone-pass' }),
        [],
        {},
        context(),
      ),
    );
    assert.equal(error.code, 'target_unreachable');
    assert.equal(error.retryable, false);
  });

  it('malformed credentials fail before any request', async () => {
    const error = await rejection(
      fx.publisher.publish(
        { message: 'x' },
        account(alice, { credentials: { identifier: 'alice.test' } }),
        [],
        {},
        context(),
      ),
    );
    assert.equal(error.code, 'credentials_invalid');
    assert.match(error.message, /appPassword/);
    assert.equal(fx.fake.server.requests.length, 0);
  });

  it('uses credentials.service over the default service URL', async () => {
    const elsewhere = publisherFor({ url: 'http://127.0.0.1:9' } as FakeBluesky);
    await elsewhere.publish(
      { message: 'own PDS' },
      account(alice, {
        credentials: { identifier: alice.handle, appPassword: alice.appPassword, service: `${fx.fake.url}/` },
      }),
      [],
      {},
      context(),
    );
    assert.equal(fx.fake.records.length, 1);
  });
});

describe('Bluesky credentials check', () => {
  it('returns the profile with the DID as platform account id', async () => {
    const profile = await fx.publisher.verifyCredentials(account());
    assert.deepEqual(profile, {
      name: 'Alice',
      username: 'alice.test',
      platformAccountId: alice.did,
      avatarUrl: 'https://cdn.example/alice.jpg',
    });
  });

  it('refuses a wrong password', async () => {
    const error = await rejection(
      fx.publisher.verifyCredentials(account({ handle: 'alice.test', appPassword: 'nope' })),
    );
    assert.equal(error.code, 'credentials_invalid');
  });
});

describe('Bluesky sessions the PDS no longer recognises', () => {
  it('logs in again when the access token is refused as InvalidToken', async () => {
    const fake2 = await startBluesky();
    try {
      const first = publisherFor(fake2);
      await first.publish({ message: 'one' }, account(), [], {}, context());
      // A restarted PDS with new signing keys refuses every earlier token.
      fake2.server.inject({
        path: /createRecord$/,
        status: 400,
        json: { error: 'InvalidToken', message: 'Token could not be verified' },
      });
      await first.publish({ message: 'two' }, account(), [], {}, context());
      assert.equal(fake2.records.length, 2);
      assert.equal(fake2.calls('com.atproto.server.refreshSession').length, 1);
    } finally {
      await fake2.close();
    }
  });

  it('offers env and credentials helpers for server tests', () => {
    assert.deepEqual(fx.fake.env(), { BLUESKY_SERVICE_URL: fx.fake.url });
    assert.deepEqual(fx.fake.credentials('alice.test'), {
      identifier: 'alice.test',
      appPassword: alice.appPassword,
      service: fx.fake.url,
    });
  });
});
