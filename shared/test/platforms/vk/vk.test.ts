import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MediaInfo } from '../../../src/media/media-file.ts';
import type { PlatformAccount } from '../../../src/platforms/types.ts';
import { VkPublisher, vkConfigFromEnv, wallGuid } from '../../../src/platforms/vk/index.ts';
import { validateVkPost } from '../../../src/platforms/vk/validate.ts';
import { samplePdf, samplePng } from '../../fakes/sample-media.ts';
import { type FakeVk, startFakeVk } from '../../fakes/vk.ts';
import { useFixture } from '../../support/fixture.ts';
import { rejection, testPublishContext } from '../../support/platform-testing.ts';
import { memoryMedia } from '../memory-media.ts';

const token = 'vk1.a.alice';
const fx = useFixture(
  async () => {
    const fake = await startFakeVk({
      tokens: {
        [token]: { id: 1001, firstName: 'Alice', lastName: 'Ivanova', admin: [77] },
        'vk1.a.reader': { id: 1002, firstName: 'Rita', lastName: 'Reader', rights: ['offline'] },
      },
    });
    return { fake, publisher: new VkPublisher({ ...vkConfigFromEnv(fake.env()), tooManyRequestsWaitMs: 5 }) };
  },
  {
    stop: (f: { fake: FakeVk }) => f.fake.close(),
    reset: (f) => {
      f.fake.server.clearInjected();
      f.fake.server.requests.length = 0;
      f.fake.posts.length = 0;
      f.fake.tooManyRequests = 0;
    },
  },
);

const account = (owner = '1001', accessToken = token): PlatformAccount => ({
  id: 'vk-1',
  platform: 'vk',
  platformAccountId: owner,
  credentials: { accessToken },
});
const context = testPublishContext;
const png = (name = 'a.png') =>
  memoryMedia(new Uint8Array(samplePng()), { filename: name, contentType: 'image/png' });
const info = (contentType: string, size = 100): MediaInfo => ({
  key: 'k',
  filename: 'f',
  contentType,
  size,
  kind: contentType.startsWith('image/') ? 'image' : contentType.startsWith('video/') ? 'video' : 'document',
  url: 'https://m.example/f',
});

describe('VK validation', () => {
  it('up to 16384 characters, text or photos, 10 JPG/PNG/GIF photos up to 50 MB', () => {
    const codes = (message: string, media: MediaInfo[] = []) =>
      validateVkPost({ message }, media).errors.map((e) => e.code);
    assert.deepEqual(codes('я'.repeat(16384)), []);
    assert.deepEqual(codes('я'.repeat(16385)), ['text_too_long']);
    assert.deepEqual(codes(' '), ['text_required']);
    assert.deepEqual(codes('', [info('image/png')]), []);
    assert.deepEqual(codes('x', Array(11).fill(info('image/png'))), ['too_many_media']);
    assert.deepEqual(codes('x', [info('video/mp4')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('image/webp')]), ['media_type_unsupported']);
    assert.deepEqual(codes('x', [info('image/jpeg', 51 * 1024 * 1024)]), ['media_too_large']);
  });

  it('the account id is the wall owner', async () => {
    const outcome = await fx.publisher.validate({ message: 'x' }, account('club77'), []);
    assert.deepEqual(
      outcome.errors.map((e) => e.code),
      ['target_unreachable'],
    );
  });
});

describe('VK publishing', () => {
  it("posts text to the user's own wall with form parameters, v=5.199 and a guid", async () => {
    const ctx = context('vk-1');
    const result = await fx.publisher.publish({ message: 'Привет, VK' }, account(), [], {}, ctx);
    const [request] = fx.fake.calls('wall.post');
    assert.match(String(request!.headers['content-type']), /application\/x-www-form-urlencoded/);
    const body = request!.body as Record<string, string>;
    assert.deepEqual(
      [body.owner_id, body.message, body.v, body.guid, body.from_group],
      ['1001', 'Привет, VK', '5.199', wallGuid(ctx.idempotencyKey), undefined],
    );
    const post = fx.fake.posts[0]!;
    assert.deepEqual(result, { platformPostId: String(post.id), url: `https://vk.com/wall1001_${post.id}` });
  });

  it('uploads photos through the wall upload server of the community, then posts as the community', async () => {
    const result = await fx.publisher.publish(
      { message: 'Club news' },
      account('-77'),
      [png(), png('b.png')],
      {},
      context('vk-1'),
    );
    assert.equal(
      (fx.fake.calls('photos.getWallUploadServer')[0]!.body as Record<string, string>).group_id,
      '77',
    );
    assert.equal((fx.fake.calls('photos.saveWallPhoto')[0]!.body as Record<string, string>).group_id, '77');
    const post = fx.fake.posts[0]!;
    assert.equal(post.ownerId, -77);
    assert.equal(post.fromGroup, true);
    assert.deepEqual(
      post.attachments,
      fx.fake.photos.slice(-2).map((p) => `photo${p.ownerId}_${p.id}`),
    );
    assert.equal(fx.fake.photos.at(-1)!.type, 'image/png');
    assert.equal(result.url, `https://vk.com/wall-77_${post.id}`);
  });

  it('a resend with the same guid answers the first post; photos saved before are not uploaded again', async () => {
    const ctx = context('vk-1');
    fx.fake.server.inject({ path: /^\/method\/wall\.post$/, status: 502, text: 'Bad Gateway' });
    const lost = await rejection(fx.publisher.publish({ message: 'Once' }, account(), [png()], {}, ctx));
    assert.deepEqual([lost.code, lost.retryable], ['platform_unavailable', true]);
    const first = await fx.publisher.publish({ message: 'Once' }, account(), [png()], {}, ctx);
    const again = await fx.publisher.publish({ message: 'Once' }, account(), [png()], {}, ctx);
    assert.equal(again.platformPostId, first.platformPostId);
    assert.equal(fx.fake.posts.length, 1);
    assert.equal(
      fx.fake.calls('photos.saveWallPhoto').length,
      2,
      'once for the first attempts, once for the last',
    );
  });

  it('error 6 is waited out; error 5 is needs_reconnect; 7 needs the missing right; 214 a closed wall', async () => {
    fx.fake.tooManyRequests = 2;
    await fx.publisher.publish({ message: 'Slowly' }, account(), [], {}, context('vk-1'));
    assert.equal(fx.fake.posts.length, 1);
    fx.fake.tooManyRequests = 10;
    const limited = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [], {}, context('vk-1')),
    );
    assert.deepEqual([limited.code, limited.retryable], ['rate_limited', true]);
    fx.fake.tooManyRequests = 0;
    const revoked = await rejection(
      fx.publisher.publish({ message: 'x' }, account('1001', 'vk1.a.gone'), [], {}, context('vk-1')),
    );
    assert.deepEqual([revoked.code, revoked.retryable], ['needs_reconnect', false]);
    assert.match(revoked.message, /error 5/);
    const rights = await rejection(
      fx.publisher.publish({ message: 'x' }, account('1002', 'vk1.a.reader'), [], {}, context('vk-1')),
    );
    assert.equal(rights.code, 'needs_reconnect');
    const closed = await rejection(
      fx.publisher.publish({ message: 'x' }, account('-88'), [], {}, context('vk-1')),
    );
    assert.deepEqual([closed.code, closed.retryable], ['target_unreachable', false]);
  });

  it('an upload the upload server does not take is media_rejected', async () => {
    const pdf = memoryMedia(new Uint8Array(samplePdf()), {
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
    const error = await rejection(
      fx.publisher.publish({ message: 'x' }, account(), [pdf], {}, context('vk-1')),
    );
    assert.equal(error.code, 'media_rejected');
  });

  it('verifies a user wall, and a community the token administers', async () => {
    assert.deepEqual(await fx.publisher.verifyCredentials(account('')), {
      name: 'Alice Ivanova',
      username: 'id1001',
      avatarUrl: 'https://sun.userapi.example/1001.jpg',
      platformAccountId: '1001',
    });
    assert.deepEqual(await fx.publisher.verifyCredentials(account('-77')), {
      name: 'Alice Club',
      username: 'aliceclub',
      avatarUrl: 'https://sun.userapi.example/g77.jpg',
      platformAccountId: '-77',
    });
    const notAdmin = await rejection(fx.publisher.verifyCredentials(account('-88')));
    assert.equal(notAdmin.code, 'target_unreachable');
    const bad = await rejection(fx.publisher.verifyCredentials(account('', 'nope')));
    assert.equal(bad.code, 'needs_reconnect');
  });
});
