import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  type FakeYouTube,
  startFakeYouTube,
  youTubeForceSslScope,
  youTubeReadonlyScope,
  youTubeUploadScope,
} from '../../fakes/youtube.ts';
import { publishContext, sampleVideo, youTubeAccount, youTubePublisher } from './setup.ts';

let fake: FakeYouTube;
let publisher: ReturnType<typeof youTubePublisher>;

before(async () => {
  // A connection that may edit videos after upload (what staging needs), and slow processing.
  fake = await startFakeYouTube({
    scopes: [youTubeUploadScope, youTubeReadonlyScope, youTubeForceSslScope],
    processingPolls: 3,
  });
  publisher = youTubePublisher(fake);
});
after(() => fake.close());
beforeEach(() => {
  fake.server.requests.length = 0;
});

const uploads = () => fake.requestsTo('POST', /^\/upload\/youtube\/v3\/videos$/).length;
const chunkPuts = () => fake.requestsTo('PUT', /^\/upload\/youtube\/v3\/videos$/).length;
const updates = () => fake.requestsTo('PUT', /^\/youtube\/v3\/videos$/);

describe('YouTube staged uploads', () => {
  it('uploads the video as private ahead of time; the publish only sets the requested privacy', async () => {
    const { file } = sampleVideo();
    const staged = await publisher.stage!(
      { message: 'Launch day' },
      youTubeAccount(fake),
      [file],
      { madeForKids: false },
      publishContext(),
    );
    assert.equal(uploads(), 1, 'the upload happened at staging');
    const video = fake.videos.at(-1)!;
    assert.equal(video.status.privacyStatus, 'private', 'nobody sees it before the due time');
    assert.equal(JSON.parse(staged.handle).videoId, video.id);
    assert.ok(staged.expiresAt.getTime() > Date.now() + 23 * 3600_000);

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'Launch day' },
      youTubeAccount(fake),
      [file],
      { madeForKids: false },
      publishContext({ staged: staged.handle }),
    );
    assert.equal(uploads() + chunkPuts(), 0, 'no upload at the due time');
    assert.equal(updates().length, 1, 'one videos.update');
    assert.equal(result.platformPostId, video.id);
    assert.deepEqual(video.status, { privacyStatus: 'public', selfDeclaredMadeForKids: false });
  });

  it('works while YouTube is still processing the upload', async () => {
    const { file } = sampleVideo();
    const staged = await publisher.stage!(
      { message: 'fresh' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    const video = fake.videos.at(-1)!;
    assert.ok(video.processingPollsLeft > 0, 'still processing');
    await publisher.publish(
      { message: 'fresh' },
      youTubeAccount(fake),
      [file],
      { privacyStatus: 'unlisted' },
      publishContext({ staged: staged.handle }),
    );
    // Other options than staged: the handle is not used, a fresh upload is made.
    assert.equal(uploads(), 2);
    await publisher.publish(
      { message: 'fresh' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(uploads(), 2, 'the matching publish used the staged upload');
    assert.equal(video.status.privacyStatus, 'public');
  });

  it('uploads as usual when the staged video was deleted in the meantime', async () => {
    const { file } = sampleVideo();
    const staged = await publisher.stage!(
      { message: 'gone' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    fake.videos.splice(fake.videos.length - 1, 1);
    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'gone' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(updates().length, 1);
    assert.equal(uploads(), 1, 'uploaded again');
    assert.equal(fake.videos.at(-1)!.id, result.platformPostId);
  });
});

describe('YouTube staged uploads that will not be published', () => {
  it('discards the private video with videos.delete; an upload already gone resolves', async () => {
    const { file } = sampleVideo();
    const staged = await publisher.stage!(
      { message: 'edited later' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    const videoId = JSON.parse(staged.handle).videoId as string;
    assert.ok(fake.videos.some((v) => v.id === videoId));
    fake.server.requests.length = 0;
    await publisher.discardStaged!(staged.handle, youTubeAccount(fake), publishContext());
    assert.equal(
      fake.videos.some((v) => v.id === videoId),
      false,
      'the private video is gone',
    );
    const deletes = fake.requestsTo('DELETE', /^\/youtube\/v3\/videos$/);
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]!.query.get('id'), videoId);
    // A second discard (a retry after a lost answer) finds it gone and resolves.
    await publisher.discardStaged!(staged.handle, youTubeAccount(fake), publishContext());
    await publisher.discardStaged!('{"other":1}', youTubeAccount(fake), publishContext());
    assert.equal(fake.requestsTo('DELETE', /^\/youtube\/v3\/videos$/).length, 2, 'not ours: no call');
  });

  it('throws when YouTube refuses (the caller retries later)', async () => {
    const { file } = sampleVideo();
    const staged = await publisher.stage!(
      { message: 'kept' },
      youTubeAccount(fake),
      [file],
      {},
      publishContext(),
    );
    // A token without an edit scope: videos.delete answers 403 insufficientPermissions.
    const { token, expiresAt } = fake.issueAccessToken(3600, youTubeUploadScope);
    const uploadOnly = youTubeAccount(fake, {
      ...fake.credentials(),
      accessToken: token,
      expiresAt: new Date(expiresAt).toISOString(),
    });
    await assert.rejects(publisher.discardStaged!(staged.handle, uploadOnly, publishContext()));
    assert.ok(
      fake.videos.some((v) => v.id === JSON.parse(staged.handle).videoId),
      'still there',
    );
  });
});

describe('YouTube staging without the edit scope', () => {
  it('refuses to stage (no private copy left behind); the publish uploads as usual', async () => {
    // A connection granted before the first comment asked for youtube.force-ssl.
    const uploadOnly = await startFakeYouTube({ scopes: [youTubeUploadScope, youTubeReadonlyScope] });
    try {
      const yt = youTubePublisher(uploadOnly);
      const { file } = sampleVideo();
      await assert.rejects(
        yt.stage!({ message: 'x' }, youTubeAccount(uploadOnly), [file], {}, publishContext()),
        /youtube\.force-ssl/,
      );
      assert.equal(uploadOnly.videos.length, 0, 'nothing uploaded');
    } finally {
      await uploadOnly.close();
    }
  });
});
