import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { withRetry } from '../../../src/publish/retry.ts';
import { type FakeYouTube, startFakeYouTube } from '../../fakes/youtube.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';
import {
  chunkBytes,
  ownMediaResolver,
  pngBytes,
  publishContext,
  sampleVideo,
  videoSize,
  youTubeAccount,
  youTubePublisher,
} from './setup.ts';

const policy = () => fastRetries(10_000);

let fake: FakeYouTube;
let publisher: ReturnType<typeof youTubePublisher>;

/** The session stored every byte once, in order: accepted chunks are contiguous and cover the file. */
function assertContiguous(
  session: { chunks: { start: number; end: number; stored: number }[] },
  total: number,
) {
  let next = 0;
  for (const chunk of session.chunks.filter((c) => c.stored > 0)) {
    assert.equal(chunk.start, next, `chunk at ${chunk.start} should start at ${next}`);
    next += chunk.stored;
  }
  assert.equal(next, total);
}

before(async () => {
  fake = await startFakeYouTube({ channel: { title: 'Postwave Test', customUrl: '@postwave' } });
  publisher = youTubePublisher(fake);
});
after(() => fake.close());
beforeEach(() => {
  fake.server.clearInjected();
  fake.server.requests.length = 0;
  fake.customThumbnails = true;
});

describe('YouTube upload', () => {
  it('uploads in aligned chunks read by range and returns the video', async () => {
    const { bytes, file } = sampleVideo();
    const result = await publisher.publish(
      { message: 'Launch day\nWe shipped it.' },
      youTubeAccount(fake),
      [file],
      { tags: ['launch', 'post wave'], madeForKids: false },
      publishContext(),
    );
    const video = fake.videos.at(-1)!;
    assert.deepEqual(result, { platformPostId: video.id, url: `https://youtu.be/${video.id}` });
    assert.deepEqual(new Uint8Array(video.bytes), bytes);
    assert.deepEqual(video.snippet, {
      title: 'Launch day',
      description: 'Launch day\nWe shipped it.',
      categoryId: '22',
      tags: ['launch', 'post wave'],
    });
    assert.deepEqual(video.status, { privacyStatus: 'public', selfDeclaredMadeForKids: false });
    assert.equal(video.contentType, 'video/mp4');

    const start = fake.requestsTo('POST', /\/upload\/youtube\/v3\/videos$/)[0]!;
    assert.equal(start.query.get('uploadType'), 'resumable');
    assert.equal(start.query.get('part'), 'snippet,status');
    assert.equal(start.headers['x-upload-content-length'], String(videoSize));
    assert.equal(start.headers['x-upload-content-type'], 'video/mp4');

    const session = fake.sessions.get(video.uploadId)!;
    assert.deepEqual(
      session.chunks.map((c) => [c.start, c.end, c.status]),
      [
        [0, chunkBytes - 1, 308],
        [chunkBytes, 2 * chunkBytes - 1, 308],
        [2 * chunkBytes, 3 * chunkBytes - 1, 308],
        [3 * chunkBytes, 4 * chunkBytes - 1, 308],
        [4 * chunkBytes, videoSize - 1, 201],
      ],
    );
    assert.equal(session.statusQueries, 0);
    assert.ok(
      file.reads.every((r) => r.end - r.start + 1 <= chunkBytes),
      'never read more than a chunk',
    );
  });

  it('schedules a private video with publishAt', async () => {
    const publishAt = new Date(Date.now() + 86_400_000).toISOString();
    await publisher.publish(
      { message: 'Later' },
      youTubeAccount(fake),
      [sampleVideo(1000).file],
      { publishAt, title: 'Premiere', description: 'Soon', categoryId: '28' },
      publishContext(),
    );
    const video = fake.videos.at(-1)!;
    assert.deepEqual(video.status, { privacyStatus: 'private', publishAt });
    assert.equal(video.snippet.categoryId, '28');
    assert.equal(video.snippet.title, 'Premiere');
  });

  it('resumes after a dropped chunk from what the session reports', async () => {
    const { bytes, file } = sampleVideo();
    // The third chunk dies after half of it was stored.
    let put = 0;
    const original = file.stream;
    file.stream = async (range) => {
      put++;
      if (put === 3) fake.failNextChunk({ kind: 'drop', storeBytes: chunkBytes / 2 });
      return original(range);
    };
    const result = await publisher.publish(
      { message: 'Dropped' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    const video = fake.videos.find((v) => v.id === result.platformPostId)!;
    assert.deepEqual(new Uint8Array(video.bytes), bytes);
    const session = fake.sessions.get(video.uploadId)!;
    assert.equal(session.statusQueries, 1);
    assert.deepEqual(
      session.chunks.map((c) => [c.start, c.status, c.stored]),
      [
        [0, 308, chunkBytes],
        [chunkBytes, 308, chunkBytes],
        [2 * chunkBytes, 0, chunkBytes / 2],
        [2.5 * chunkBytes, 308, chunkBytes],
        [3.5 * chunkBytes, 201, videoSize - 3.5 * chunkBytes],
      ],
    );
    assertContiguous(session, videoSize);
  });

  it('resumes after a 503 on a chunk', async () => {
    const { bytes, file } = sampleVideo();
    fake.failNextChunk({ kind: 'status', status: 503 }, { kind: 'status', status: 500 });
    const result = await publisher.publish(
      { message: '5xx' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    const video = fake.videos.find((v) => v.id === result.platformPostId)!;
    assert.deepEqual(new Uint8Array(video.bytes), bytes);
    const session = fake.sessions.get(video.uploadId)!;
    assert.equal(session.statusQueries, 2);
    assertContiguous(session, videoSize);
  });

  it('continues the same session when a failed publish is retried', async () => {
    const { bytes, file } = sampleVideo();
    const context = publishContext();
    // The second chunk fails more often in a row than one attempt tolerates (4); the retry resumes.
    const original = file.stream;
    let reads = 0;
    file.stream = async (range) => {
      if (++reads === 2)
        fake.failNextChunk(...Array.from({ length: 4 }, () => ({ kind: 'status' as const, status: 503 })));
      return original(range);
    };
    const videosBefore = fake.videos.length;
    const sessionsBefore = fake.sessions.size;
    const result = await withRetry(
      () => publisher.publish({ message: 'retry' }, youTubeAccount(fake), [file], {}, context),
      policy(),
    );
    assert.equal(fake.videos.length, videosBefore + 1);
    assert.equal(fake.sessions.size, sessionsBefore + 1, 'one upload session for both attempts');
    const video = fake.videos.find((v) => v.id === result.platformPostId)!;
    assert.deepEqual(new Uint8Array(video.bytes), bytes);
    const session = fake.sessions.get(video.uploadId)!;
    assertContiguous(session, videoSize);
    assert.equal(session.chunks.filter((c) => c.start === 0).length, 1, 'the first chunk was not sent again');
  });

  it('sets the thumbnail from our own media', async () => {
    const image = memoryMedia(pngBytes(4096), {
      filename: 'thumb.png',
      contentType: 'image/png',
      key: 'thumb.png',
    });
    const result = await publisher.publish(
      { message: 'With thumbnail' },
      youTubeAccount(fake),
      [sampleVideo(5000).file],
      { thumbnailUrl: image.url },
      publishContext({ resolveOwnMedia: ownMediaResolver([image]) }),
    );
    const video = fake.videos.find((v) => v.id === result.platformPostId)!;
    assert.equal(video.thumbnail?.contentType, 'image/png');
    assert.deepEqual(
      new Uint8Array(video.thumbnail!.bytes),
      await image.blob().then(async (b) => new Uint8Array(await b.arrayBuffer())),
    );
    const set = fake.requestsTo('POST', /thumbnails\/set$/)[0]!;
    assert.equal(set.query.get('videoId'), video.id);
  });

  it('still reports the video posted when the thumbnail is refused', async () => {
    fake.customThumbnails = false;
    const image = memoryMedia(pngBytes(), { filename: 'thumb.png', contentType: 'image/png' });
    const warnings: unknown[] = [];
    const result = await publisher.publish(
      { message: 'Thumbnail refused' },
      youTubeAccount(fake),
      [sampleVideo(5000).file],
      { thumbnailUrl: image.url },
      publishContext({
        resolveOwnMedia: ownMediaResolver([image]),
        logger: { debug() {}, info() {}, error() {}, warn: (obj) => warnings.push(obj) },
      }),
    );
    assert.ok(result.platformPostId);
    assert.equal(warnings.length, 1);
    assert.equal((warnings[0] as { code: string }).code, 'target_unreachable');
  });
});

describe('YouTube errors', () => {
  it('treats a used-up quota as rate_limited without retrying', async () => {
    fake.failNext({ path: /\/upload\/youtube\/v3\/videos$/, status: 403, reason: 'quotaExceeded' });
    const error = await rejection(
      withRetry(
        () =>
          publisher.publish(
            { message: 'quota' },
            youTubeAccount(fake),
            [sampleVideo(10).file],
            {},
            publishContext(),
          ),
        policy(),
      ),
    );
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, false);
    assert.match(error.message, /quota/);
    assert.equal(fake.requestsTo('POST', /\/videos$/).length, 1);
  });

  it('maps uploadLimitExceeded, forbidden and youtubeSignupRequired', async () => {
    const cases = [
      [403, 'uploadLimitExceeded', 'rate_limited'],
      [403, 'forbidden', 'target_unreachable'],
      [401, 'youtubeSignupRequired', 'target_unreachable'],
      [400, 'invalidTitle', 'content_rejected'],
    ] as const;
    for (const [status, reason, code] of cases) {
      fake.failNext({ path: /\/upload\/youtube\/v3\/videos$/, status, reason });
      const error = await rejection(
        publisher.publish(
          { message: 'x' },
          youTubeAccount(fake),
          [sampleVideo(10).file],
          {},
          publishContext(),
        ),
      );
      assert.equal(error.code, code, reason);
      assert.equal(error.retryable, false, reason);
    }
    assert.equal(
      fake.requestsTo('POST', /\/token$/).length,
      4,
      'no refresh for youtubeSignupRequired beyond the initial one',
    );
  });

  it("classifies YouTube's own metadata refusal when validation was bypassed", async () => {
    const error = await rejection(
      publisher.publish(
        { message: 'x' },
        youTubeAccount(fake),
        [sampleVideo(10).file],
        { title: 'a <b>' },
        publishContext(),
      ),
    );
    assert.equal(error.code, 'content_rejected');
    assert.match(error.message, /invalidTitle/);
  });

  it('retries 5xx when starting the session', async () => {
    fake.failNext({ path: /\/upload\/youtube\/v3\/videos$/, status: 503, reason: 'backendError' });
    const result = await withRetry(
      () =>
        publisher.publish(
          { message: 'x' },
          youTubeAccount(fake),
          [sampleVideo(10).file],
          {},
          publishContext(),
        ),
      policy(),
    );
    assert.ok(result.platformPostId);
    assert.equal(fake.requestsTo('POST', /\/videos$/).length, 2);
  });

  it('refuses anything but exactly one video at publish too', async () => {
    const error = await rejection(
      publisher.publish({ message: 'x' }, youTubeAccount(fake), [], {}, publishContext()),
    );
    assert.equal(error.code, 'media_rejected');
  });
});

describe('YouTube verifyCredentials', () => {
  it('returns the channel', async () => {
    const profile = await publisher.verifyCredentials(youTubeAccount(fake));
    assert.deepEqual(profile, {
      name: 'Postwave Test',
      username: '@postwave',
      avatarUrl: fake.channel!.thumbnailUrl,
      platformAccountId: fake.channel!.id,
    });
  });

  it('reports an account without a channel', async () => {
    const empty = await startFakeYouTube({ channel: null });
    try {
      const error = await rejection(youTubePublisher(empty).verifyCredentials(youTubeAccount(empty)));
      assert.equal(error.code, 'target_unreachable');
    } finally {
      await empty.close();
    }
  });
});
