import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { publishContext, threadsAccount, threadsFixture } from './setup.ts';

const fx = threadsFixture({ processingPolls: 2 });

const containersCreated = () => fx.fake.requestsTo('POST', /^\/v1\.0\/\d+\/threads$/).length;

describe('Threads staged containers', () => {
  it('builds and processes the video container ahead of time; the publish only calls threads_publish', async () => {
    const video = fx.host.mp4();
    const staged = await fx.publisher.stage!(
      { message: 'clip' },
      threadsAccount(fx.fake),
      [video],
      {},
      publishContext(),
    );
    assert.equal(containersCreated(), 1);
    assert.equal(fx.fake.posts.length, 0, 'nothing published yet');
    const container = JSON.parse(staged.handle).container as string;
    assert.equal(fx.fake.containers.get(container)?.status, 'FINISHED');

    fx.fake.server.requests.length = 0;
    const result = await fx.publisher.publish(
      { message: 'clip' },
      threadsAccount(fx.fake),
      [video],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 0, 'no container built at the due time');
    assert.equal(fx.fake.posts.find((p) => p.id === result.platformPostId)?.containerId, container);
  });

  it('builds a fresh container when the post changed since it was staged', async () => {
    const video = fx.host.mp4();
    const staged = await fx.publisher.stage!(
      { message: 'old' },
      threadsAccount(fx.fake),
      [video],
      {},
      publishContext(),
    );
    fx.fake.server.requests.length = 0;
    const result = await fx.publisher.publish(
      { message: 'edited' },
      threadsAccount(fx.fake),
      [video],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 1);
    const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.notEqual(post.containerId, JSON.parse(staged.handle).container);
  });
});
