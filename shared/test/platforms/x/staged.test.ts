import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeX, startFakeX } from '../../fakes/x.ts';
import { media, publishContext, xAccount, xPublisher } from './setup.ts';

let fake: FakeX;
let publisher: ReturnType<typeof xPublisher>;

before(async () => {
  fake = await startFakeX();
  publisher = xPublisher(fake, { X_MEDIA_CHUNK_BYTES: '32' });
});
after(() => fake.close());
beforeEach(() => {
  fake.server.requests.length = 0;
});

const uploads = () => fake.requestsTo('POST', /^\/2\/media\/upload/).length;

describe('X staged media', () => {
  it('uploads and processes a video ahead of time; the publish then only creates the post', async () => {
    const video = media.mp4(100);
    const staged = await publisher.stage!({ message: 'clip' }, xAccount(fake), [video], {}, publishContext());
    assert.ok(uploads() > 0, 'the upload happened at staging');
    assert.equal(fake.posts.length, 0, 'nothing posted yet');
    assert.ok(staged.expiresAt.getTime() > Date.now() + 22 * 3600_000, 'media ids live about a day');

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'clip' },
      xAccount(fake),
      [video],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(uploads(), 0, 'no upload at the due time');
    assert.equal(fake.requestsTo('GET', /^\/2\/media\/upload$/).length, 0, 'no processing wait either');
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.deepEqual(post.mediaIds, (JSON.parse(staged.handle) as { ids: string[] }).ids);
  });

  it('ignores a handle made for other media and uploads as usual', async () => {
    const staged = await publisher.stage!(
      { message: 'a' },
      xAccount(fake),
      [media.png()],
      {},
      publishContext(),
    );
    fake.server.requests.length = 0;
    await publisher.publish(
      { message: 'b' },
      xAccount(fake),
      [media.jpeg()],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.ok(uploads() > 0);
    await publisher.publish(
      { message: 'c' },
      xAccount(fake),
      [media.jpeg('c.jpg')],
      {},
      publishContext({ staged: 'garbage' }),
    );
  });
});
