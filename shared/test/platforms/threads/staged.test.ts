import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeThreads, startFakeThreads } from '../../fakes/threads.ts';
import { MediaHost, publishContext, threadsAccount, threadsPublisher } from './setup.ts';

let fake: FakeThreads;
let host: MediaHost;
let publisher: ReturnType<typeof threadsPublisher>;

before(async () => {
  fake = await startFakeThreads({ processingPolls: 2 });
  host = await new MediaHost().start();
  publisher = threadsPublisher(fake);
});
after(async () => {
  await fake.close();
  await host.close();
});
beforeEach(() => {
  fake.server.requests.length = 0;
});

const containersCreated = () => fake.requestsTo('POST', /^\/v1\.0\/\d+\/threads$/).length;

describe('Threads staged containers', () => {
  it('builds and processes the video container ahead of time; the publish only calls threads_publish', async () => {
    const video = host.mp4();
    const staged = await publisher.stage!(
      { message: 'clip' },
      threadsAccount(fake),
      [video],
      {},
      publishContext(),
    );
    assert.equal(containersCreated(), 1);
    assert.equal(fake.posts.length, 0, 'nothing published yet');
    const container = JSON.parse(staged.handle).container as string;
    assert.equal(fake.containers.get(container)?.status, 'FINISHED');

    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'clip' },
      threadsAccount(fake),
      [video],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 0, 'no container built at the due time');
    assert.equal(fake.posts.find((p) => p.id === result.platformPostId)?.containerId, container);
  });

  it('builds a fresh container when the post changed since it was staged', async () => {
    const video = host.mp4();
    const staged = await publisher.stage!(
      { message: 'old' },
      threadsAccount(fake),
      [video],
      {},
      publishContext(),
    );
    fake.server.requests.length = 0;
    const result = await publisher.publish(
      { message: 'edited' },
      threadsAccount(fake),
      [video],
      {},
      publishContext({ staged: staged.handle }),
    );
    assert.equal(containersCreated(), 1);
    const post = fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.notEqual(post.containerId, JSON.parse(staged.handle).container);
  });
});
