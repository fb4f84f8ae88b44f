import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { youTubeModule } from '../../../src/platforms/youtube/index.ts';
import { PostingService } from '../../../src/publish/posting.ts';
import { LocalStorage } from '../../../src/storage/local.ts';
import { type FakeYouTube, startFakeYouTube } from '../../fakes/youtube.ts';
import { patternBytes } from '../memory-media.ts';
import { chunkBytes, pngBytes } from './setup.ts';

describe('PostingService with YouTube', () => {
  let fake: FakeYouTube;
  let directory: string;
  let storage: LocalStorage;
  let service: PostingService;
  let account: PlatformAccount;
  const video = patternBytes(3 * chunkBytes + 100, 11);
  const refreshed: [string, Record<string, unknown>][] = [];
  const retryPolicy = () => ({
    maxAttempts: 3,
    baseDelayMs: 5,
    maxDelayMs: 20,
    deadline: Date.now() + 10_000,
  });

  before(async () => {
    fake = await startFakeYouTube();
    directory = await mkdtemp(join(tmpdir(), 'postwave-yt-'));
    storage = new LocalStorage({
      directory,
      publicBaseUrl: 'http://media.test',
      signingSecret: 'test-secret',
    });
    await storage.put('clip.mp4', Readable.from([Buffer.from(video)]), {
      contentType: 'video/mp4',
      maxBytes: 10e6,
    });
    await storage.put('thumb.png', Readable.from([Buffer.from(pngBytes(2048))]), {
      contentType: 'image/png',
      maxBytes: 10e6,
    });
    const registry = PublisherRegistry.fromEnv(
      { ...fake.env(), YOUTUBE_UPLOAD_CHUNK_BYTES: String(chunkBytes) },
      [youTubeModule],
    );
    service = new PostingService({ publishers: registry, storage });
    account = {
      id: 'yt1',
      platform: 'youtube',
      platformAccountId: fake.channel!.id,
      credentials: fake.credentials(),
    };
  });
  after(async () => {
    await fake.close();
    await rm(directory, { recursive: true, force: true });
  });

  const lookup = (id: string) => (id === account.id ? account : undefined);

  it('refuses a thumbnailUrl that is not our own media, before uploading anything', async () => {
    const prepared = await service.prepare(
      {
        message: 'Title',
        accountIds: ['yt1'],
        media: [{ key: 'clip.mp4' }],
        accountOptions: { yt1: { thumbnailUrl: 'https://elsewhere.example/media/thumb.png' } },
      },
      lookup,
    );
    assert.equal(prepared.validation.valid, false);
    assert.deepEqual(
      prepared.validation.results[0]!.errors.map((e) => e.code),
      ['thumbnail_not_found'],
    );
    assert.equal(fake.server.requests.length, 0);
  });

  it('publishes from storage with our own thumbnail and stores the refreshed token', async () => {
    const prepared = await service.prepare(
      {
        message: 'Storage video\nDescription',
        accountIds: ['yt1'],
        media: [{ key: 'clip.mp4' }],
        accountOptions: { yt1: { thumbnailUrl: storage.publicUrl('thumb.png'), privacyStatus: 'unlisted' } },
      },
      lookup,
    );
    assert.equal(prepared.validation.valid, true, JSON.stringify(prepared.validation));
    const [result] = await service.publish(prepared, {
      retryPolicy: retryPolicy(),
      onCredentialsRefreshed: (accountId, credentials) => void refreshed.push([accountId, credentials]),
    });
    assert.equal(result?.status, 'posted', JSON.stringify(result));
    const uploaded = fake.videos.find((v) => v.id === result!.platformPostId)!;
    assert.equal(result!.url, `https://youtu.be/${uploaded.id}`);
    assert.deepEqual(new Uint8Array(uploaded.bytes), video);
    assert.equal(uploaded.status.privacyStatus, 'unlisted');
    assert.equal(uploaded.thumbnail?.contentType, 'image/png');
    assert.equal(refreshed.length, 1);
    assert.equal(refreshed[0]![0], 'yt1');
    assert.equal(typeof refreshed[0]![1].accessToken, 'string');
  });

  it('reports a revoked connection as a permanent failure', async () => {
    fake.revokeRefreshToken();
    const prepared = await service.prepare(
      { message: 'Again', accountIds: ['yt1'], media: [{ key: 'clip.mp4' }] },
      lookup,
    );
    const [result] = await service.publish(prepared, { retryPolicy: retryPolicy() });
    assert.equal(result?.status, 'failed');
    assert.deepEqual(
      { code: result?.error?.code, retryable: result?.error?.retryable },
      { code: 'needs_reconnect', retryable: false },
    );
  });
});
