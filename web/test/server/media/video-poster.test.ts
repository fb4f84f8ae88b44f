import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { LocalStorage } from '@postwave/shared';
import { sampleMp4 } from '@postwave/shared/testing';
import sharp from 'sharp';
import { loadConfig } from '../../../server/config.ts';
import { resolveFfmpeg } from '../../../server/media/ffmpeg.ts';
import { thumbnailSuffix } from '../../../server/media/thumbnail.ts';
import { inspectVideo, PosterError, probeFacts } from '../../../server/media/video-poster.ts';
import { videoOf } from '../../helpers/media.ts';

/*
 * Video posters with the machine's ffmpeg (docs/media-library.md#thumbnails-and-posters): where
 * ffmpeg is found, what a poster is, and what ffmpeg is never made to do with a hostile file.
 */

const scratch = () => mkdtempSync(join(tmpdir(), 'postwave-poster-test-'));

describe('FFMPEG_PATH', () => {
  test('unset: ffmpeg on PATH if there is one; off: none; a path must be an executable file', () => {
    const dir = scratch();
    const fake = join(dir, 'ffmpeg');
    writeFileSync(fake, '#!/bin/sh\n');
    chmodSync(fake, 0o755);
    assert.deepEqual(resolveFfmpeg(undefined, `/nonexistent:${dir}`), { path: fake });
    assert.deepEqual(resolveFfmpeg(undefined, '/nonexistent'), { path: undefined });
    assert.deepEqual(resolveFfmpeg(undefined, undefined), { path: undefined });
    assert.deepEqual(resolveFfmpeg('off', dir), { path: undefined });
    assert.deepEqual(resolveFfmpeg(fake, undefined), { path: fake });
    assert.ok('error' in resolveFfmpeg('ffmpeg', dir), 'a relative name is refused');
    assert.ok('error' in resolveFfmpeg(join(dir, 'missing'), dir));
    assert.ok('error' in resolveFfmpeg(dir, undefined), 'a directory is not a program');
    const plain = join(dir, 'plain');
    writeFileSync(plain, 'x');
    assert.ok('error' in resolveFfmpeg(plain, undefined), 'a file that cannot run');
  });

  test('is read once at start: a bad value stops it, naming the variable', () => {
    const base = { DATA_DIR: scratch(), LOG_LEVEL: 'silent' };
    assert.throws(() => loadConfig({ ...base, FFMPEG_PATH: '/nonexistent/ffmpeg' }), /FFMPEG_PATH/);
    assert.equal(loadConfig({ ...base, FFMPEG_PATH: 'off', PATH: '/usr/bin' }).ffmpeg, undefined);
    assert.equal(loadConfig({ ...base, PATH: '/nonexistent' }).ffmpeg, undefined);
  });
});

describe('video posters', () => {
  const ffmpeg = resolveFfmpeg(undefined, process.env.PATH);
  const ffmpegPath = 'path' in ffmpeg ? ffmpeg.path : undefined;
  let storage: LocalStorage;
  let directory: string;
  const put = async (key: string, bytes: Buffer, contentType: string) => {
    await storage.put(key, Readable.from([bytes]), { contentType, maxBytes: bytes.length });
  };
  /** The stored poster's format and size. */
  const posterOf = async (key: string) => {
    const meta = await sharp(await (await storage.blob(key)).arrayBuffer()).metadata();
    return [meta.format, meta.width, meta.height];
  };

  before(() => {
    assert.ok(ffmpegPath, 'the tests need ffmpeg on PATH (Debian: apt-get install ffmpeg; .ci/run does)');
    directory = scratch();
    storage = new LocalStorage({
      directory,
      publicBaseUrl: 'http://127.0.0.1:9',
      signingSecret: 's'.repeat(32),
    });
  });

  test('an MP4 with its index at the end: the frame at one second, its size and duration', async () => {
    await put('clip.mp4', videoOf('mp4', 3), 'video/mp4');
    const inspection = await inspectVideo(storage, 'clip.mp4', 'video/mp4', ffmpegPath!);
    assert.deepEqual(inspection, {
      width: 320,
      height: 180,
      durationMs: 3000,
      thumbnailKey: `clip.mp4${thumbnailSuffix}`,
    });
    assert.deepEqual(await posterOf(inspection.thumbnailKey!), ['webp', 320, 180]);
  });

  test('a WebM shorter than two seconds: the frame halfway; a large frame is made small', async () => {
    await put('short.webm', videoOf('webm', 1, '1280x720'), 'video/webm');
    const inspection = await inspectVideo(storage, 'short.webm', 'video/webm', ffmpegPath!);
    assert.deepEqual([inspection.width, inspection.height, inspection.durationMs], [1280, 720, 1000]);
    assert.deepEqual(await posterOf(inspection.thumbnailKey!), ['webp', 320, 180]);
  });

  test('a video its player turns (portrait from a phone): the poster and size as it is shown', async () => {
    await put('portrait.mp4', videoOf('mp4', 2, '320x180', 90), 'video/mp4');
    const inspection = await inspectVideo(storage, 'portrait.mp4', 'video/mp4', ffmpegPath!);
    assert.deepEqual([inspection.width, inspection.height], [180, 320]);
    assert.deepEqual(await posterOf(inspection.thumbnailKey!), ['webp', 180, 320]);
  });

  test('more videos at once than take turns: each gets its poster, a failing one frees its turn', async () => {
    const clip = videoOf('mp4', 1, '160x90');
    const keys = ['a', 'b', 'c', 'd', 'e'].map((k) => `turn-${k}.mp4`);
    for (const key of keys) await put(key, clip, 'video/mp4');
    await put('turn-broken.mp4', sampleMp4(), 'video/mp4');
    const results = await Promise.allSettled(
      ['turn-broken.mp4', ...keys].map((key) => inspectVideo(storage, key, 'video/mp4', ffmpegPath!)),
    );
    assert.equal(results[0]!.status, 'rejected');
    for (const result of results.slice(1)) {
      assert.equal(result.status, 'fulfilled');
      if (result.status === 'fulfilled')
        assert.deepEqual([result.value.width, result.value.height], [160, 90]);
    }
  });

  test('a file with no frame in it has no poster', async () => {
    await put('empty.mp4', sampleMp4(), 'video/mp4');
    await assert.rejects(inspectVideo(storage, 'empty.mp4', 'video/mp4', ffmpegPath!), PosterError);
  });

  test('a playlist stored as an MP4 is read as an MP4: nothing it names is opened', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('#EXTM3U\n');
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    after(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A video elsewhere on the machine, which the playlist names: read, it would become the poster.
    const elsewhere = join(scratch(), 'elsewhere.ts');
    writeFileSync(elsewhere, videoOf('ts', 2));
    const playlist = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile:${elsewhere}\n#EXTINF:1,\n${url}/segment.ts\n#EXT-X-ENDLIST\n`,
    );
    await put('playlist.mp4', playlist, 'video/mp4');
    await assert.rejects(inspectVideo(storage, 'playlist.mp4', 'video/mp4', ffmpegPath!), PosterError);
    assert.equal(requests, 0, 'no request left the machine');
  });

  test('probe lines: duration and the first video stream’s size', () => {
    const facts = probeFacts(
      [
        '  Duration: 01:02:03.45, start: 0.000000, bitrate: 31 kb/s',
        '  Stream #0:0[0x1](und): Audio: aac (LC), 44100 Hz, stereo, fltp, 128 kb/s',
        '  Stream #0:1[0x2](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 1920x1080 [SAR 1:1 DAR 16:9], 28 kb/s',
      ].join('\n'),
    );
    assert.deepEqual(facts, { hasVideo: true, durationMs: 3_723_450, width: 1920, height: 1080 });
    assert.deepEqual(probeFacts('  Duration: N/A, bitrate: N/A\n'), { hasVideo: false });
  });
});
