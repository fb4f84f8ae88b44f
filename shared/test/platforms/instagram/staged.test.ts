import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger } from '../../../src/logger.ts';
import { instagramModule } from '../../../src/platforms/instagram/index.ts';
import type { PlatformAccount, PublishContext } from '../../../src/platforms/types.ts';
import { type FakeInstagram, startFakeInstagram } from '../../fakes/instagram.ts';
import { sampleMp4 } from '../../fakes/sample-media.ts';
import { MediaHost } from '../media-host.ts';

const context = (overrides: Partial<PublishContext> = {}): PublishContext => ({
  signal: AbortSignal.timeout(20_000),
  idempotencyKey: `post-${Math.random()}:ig1`,
  logger: silentLogger,
  ...overrides,
});

describe('Instagram staged containers', () => {
  let fake: FakeInstagram;
  let host: MediaHost;
  let publisher: ReturnType<typeof instagramModule.create>;
  let account: PlatformAccount;
  const mp4 = () => host.file(new Uint8Array(sampleMp4()), 'clip.mp4', 'video/mp4');
  const containersCreated = () => fake.requestsTo('POST', /\/media$/).length;
  const publishes = () => fake.requestsTo('POST', /\/media_publish$/).length;

  before(async () => {
    fake = await startFakeInstagram({ videoProcessingPolls: 3 });
    host = await new MediaHost().start();
    publisher = instagramModule.create(fake.env());
    account = {
      id: 'ig1',
      platform: 'instagram',
      platformAccountId: fake.account.id,
      credentials: fake.credentials(),
    };
  });
  after(async () => {
    await fake.close();
    await host.close();
  });
  beforeEach(() => {
    fake.server.requests.length = 0;
  });

  it('builds and processes the reel container ahead; the publish only checks it and calls media_publish', async () => {
    const video = mp4();
    const staged = await publisher.stage!({ message: 'reel' }, account, [video], {}, context());
    const { container } = JSON.parse(staged.handle) as { container: string };
    assert.equal(containersCreated(), 1);
    assert.equal(fake.containers.get(container)?.status, 'FINISHED', 'processed at staging');
    assert.equal(publishes(), 0, 'nothing published yet');
    assert.ok(staged.expiresAt.getTime() < Date.now() + 24 * 3600_000, 'used before Instagram expires it');

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'reel' },
      account,
      [video],
      {},
      context({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 0, 'no container built at the due time');
    assert.equal(publishes(), 1);
    assert.equal(fake.media.find((m) => m.id === result.platformPostId)?.containerId, container);
  });

  it('builds a fresh container when the staged one expired (24 h) or the post changed', async () => {
    const video = mp4();
    const staged = await publisher.stage!({ message: 'old' }, account, [video], {}, context());
    const { container } = JSON.parse(staged.handle) as { container: string };
    fake.containers.get(container)!.createdAt -= 24 * 60 * 60_000;
    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'old' },
      account,
      [video],
      {},
      context({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 1, 'a new container instead of the expired one');
    assert.equal(fake.containers.get(container)?.status, 'EXPIRED');
    assert.notEqual(fake.media.find((m) => m.id === result.platformPostId)?.containerId, container);

    const again = await publisher.stage!({ message: 'before edit' }, account, [video], {}, context());
    fake.server.requests.length = 0;
    await publisher.publish(
      { message: 'after edit' },
      account,
      [video],
      {},
      context({ staged: again.handle }),
    );
    assert.equal(containersCreated(), 1, 'the edited post gets its own container');
    assert.equal(fake.media.at(-1)?.caption, 'after edit');
  });
});
