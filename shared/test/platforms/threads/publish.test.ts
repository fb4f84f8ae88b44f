import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withRetry } from '../../../src/publish/retry.ts';
import { graphError } from '../../fakes/threads.ts';
import { fastRetries, rejection } from '../../support/platform-testing.ts';
import { publishContext, threadsAccount, threadsFixture } from './setup.ts';

const fx = threadsFixture({ processingPolls: 2 });

const paths = () => fx.fake.server.requests.map((r) => `${r.method} ${r.path.replace(/\d{5,}/g, ':id')}`);

describe('Threads publishing', () => {
  it('checks the quota, creates a TEXT container, waits for FINISHED, publishes, returns the permalink', async () => {
    const result = await fx.publisher.publish(
      { message: 'Hello Threads 😀' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.equal(post.text, 'Hello Threads 😀');
    assert.equal(post.mediaType, 'TEXT_POST');
    assert.equal(result.url, post.permalink);
    assert.deepEqual(paths(), [
      'GET /v1.0/:id/threads_publishing_limit',
      'POST /v1.0/:id/threads',
      'GET /v1.0/:id',
      'POST /v1.0/:id/threads_publish',
      'GET /v1.0/:id',
    ]);
    const create = fx.fake.requestsTo('POST', /\/threads$/)[0]!;
    assert.equal(create.query.get('media_type'), 'TEXT');
  });

  it('posts one image that Threads downloads from our public URL', async () => {
    const image = fx.host.png('one.png');
    const result = await fx.publisher.publish(
      { message: 'pic' },
      threadsAccount(fx.fake),
      [image],
      {},
      publishContext(),
    );
    const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
    const container = fx.fake.containers.get(post.containerId)!;
    assert.equal(container.mediaType, 'IMAGE');
    assert.equal(container.url, image.url);
    assert.equal(container.downloaded?.contentType, 'image/png');
  });

  it('waits through IN_PROGRESS for a video', async () => {
    const result = await fx.publisher.publish(
      { message: 'clip' },
      threadsAccount(fx.fake),
      [fx.host.mp4()],
      {},
      publishContext(),
    );
    const container = fx.fake.containers.get(
      fx.fake.posts.find((p) => p.id === result.platformPostId)!.containerId,
    )!;
    assert.equal(container.mediaType, 'VIDEO');
    const polls = fx.fake
      .requestsTo('GET', /^\/v1\.0\/\d+$/)
      .filter((r) => r.query.get('fields') === 'status,error_message');
    assert.equal(polls.length, 3, 'IN_PROGRESS twice, then FINISHED');
  });

  it('publishes a carousel of images and a video: items first, then the CAROUSEL container', async () => {
    const files = [fx.host.png('c1.png'), fx.host.jpeg('c2.jpg'), fx.host.mp4('c3.mp4')];
    const result = await fx.publisher.publish(
      { message: 'carousel' },
      threadsAccount(fx.fake),
      files,
      { replyControl: 'accounts_you_follow', topicTag: 'Postwave' },
      publishContext(),
    );
    const post = fx.fake.posts.find((p) => p.id === result.platformPostId)!;
    assert.equal(post.mediaType, 'CAROUSEL_ALBUM');
    assert.equal(post.children.length, 3);
    const items = post.children.map((id) => fx.fake.containers.get(id)!);
    assert.deepEqual(
      items.map((c) => c.mediaType),
      ['IMAGE', 'IMAGE', 'VIDEO'],
    );
    assert.ok(items.every((c) => c.isCarouselItem && c.text === undefined));
    const carousel = fx.fake.containers.get(post.containerId)!;
    assert.equal(carousel.params.reply_control, 'accounts_you_follow');
    assert.equal(carousel.params.topic_tag, 'Postwave');
    assert.equal(carousel.text, 'carousel');
  });

  it('sends reply and quote ids', async () => {
    const first = await fx.publisher.publish(
      { message: 'parent' },
      threadsAccount(fx.fake),
      [],
      {},
      publishContext(),
    );
    const reply = await fx.publisher.publish(
      { message: 'child' },
      threadsAccount(fx.fake),
      [],
      { replyToId: first.platformPostId, quotePostId: first.platformPostId },
      publishContext(),
    );
    const container = fx.fake.containers.get(
      fx.fake.posts.find((p) => p.id === reply.platformPostId)!.containerId,
    )!;
    assert.equal(container.params.reply_to_id, first.platformPostId);
    assert.equal(container.params.quote_post_id, first.platformPostId);
  });

  it('refuses to start when the 250-posts quota is spent, with a clear message, creating nothing', async () => {
    fx.fake.extraQuotaUsage = fx.fake.quotaTotal - fx.fake.posts.length;
    const error = await rejection(
      withRetry(
        () =>
          fx.publisher.publish({ message: 'too many' }, threadsAccount(fx.fake), [], {}, publishContext()),
        fastRetries(),
      ),
    );
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, false);
    assert.match(error.message, /250 of 250 posts in the last 24 hours/);
    assert.equal(fx.fake.requestsTo('POST', /\/threads$/).length, 0);
  });

  it('reports media Threads could not download as media_rejected', async () => {
    const error = await rejection(
      fx.publisher.publish(
        { message: 'gone' },
        threadsAccount(fx.fake),
        [fx.host.missing('v.mp4', 'video/mp4')],
        {},
        publishContext(),
      ),
    );
    assert.equal(error.code, 'media_rejected');
    assert.equal(error.retryable, false);
    assert.match(error.message, /FAILED_DOWNLOADING_VIDEO/);
    assert.equal(fx.fake.requestsTo('POST', /threads_publish$/).length, 0);
  });

  it('maps Graph API errors', async () => {
    const cases: [ReturnType<typeof graphError>, string, boolean][] = [
      [
        graphError(400, 190, 'Error validating access token: Session has expired.', { error_subcode: 463 }),
        'needs_reconnect',
        false,
      ],
      [graphError(403, 10, 'Application does not have permission for this action'), 'needs_reconnect', false],
      [graphError(400, 4, 'Application request limit reached', { is_transient: true }), 'rate_limited', true],
      [
        graphError(400, 4, 'Application request limit reached', { error_subcode: 2207042 }),
        'rate_limited',
        false,
      ],
      [graphError(500, 1, 'An unknown error occurred', { is_transient: true }), 'platform_unavailable', true],
      [
        graphError(400, 2, 'An unexpected error has occurred. Please retry your request later.', {
          is_transient: true,
        }),
        'platform_unavailable',
        true,
      ],
      [
        graphError(400, 100, "Unsupported post request. Object with ID '1' does not exist", {
          error_subcode: 33,
        }),
        'target_unreachable',
        false,
      ],
      [
        graphError(400, 368, 'The action attempted has been deemed abusive or is otherwise disallowed'),
        'content_rejected',
        false,
      ],
      [graphError(400, 100, 'The parameter text is invalid.'), 'content_rejected', false],
    ];
    for (const [answer, code, retryable] of cases) {
      fx.fake.server.inject({ path: /\/threads$/, ...answer });
      const error = await rejection(
        fx.publisher.publish({ message: 'e' }, threadsAccount(fx.fake), [], {}, publishContext()),
      );
      assert.deepEqual({ code: error.code, retryable: error.retryable }, { code, retryable }, error.message);
    }
  });

  it('honours estimated_time_to_regain_access on a rate limit', async () => {
    fx.fake.server.inject({
      path: /\/threads$/,
      ...graphError(400, 4, 'Application request limit reached'),
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [fx.fake.appId]: [
            {
              type: 'threads',
              call_count: 100,
              total_cputime: 20,
              total_time: 30,
              estimated_time_to_regain_access: 3,
            },
          ],
        }),
      },
    });
    const error = await rejection(
      fx.publisher.publish({ message: 'r' }, threadsAccount(fx.fake), [], {}, publishContext()),
    );
    assert.equal(error.retryAfterMs, 180_000);
  });

  it('publishes once after a transient failure', async () => {
    fx.fake.server.inject({
      path: /threads_publish$/,
      ...graphError(500, 2, 'Service temporarily unavailable', { is_transient: true }),
    });
    const before = fx.fake.posts.length;
    await withRetry(
      () => fx.publisher.publish({ message: 'retry me' }, threadsAccount(fx.fake), [], {}, publishContext()),
      fastRetries(),
    );
    assert.equal(fx.fake.posts.length, before + 1);
  });

  it('a retry after a lost publish answer reports the published post instead of posting again', async () => {
    fx.fake.loseNextPublishAnswer();
    const before = fx.fake.posts.length;
    const context = publishContext();
    const result = await withRetry(
      () => fx.publisher.publish({ message: 'lost answer' }, threadsAccount(fx.fake), [], {}, context),
      fastRetries(),
    );
    assert.equal(fx.fake.posts.length, before + 1, 'published once');
    assert.equal(result.platformPostId, fx.fake.posts.at(-1)!.id);
    assert.equal(result.url, fx.fake.posts.at(-1)!.permalink);
  });

  it('a retry after a failed publish reuses the finished container', async () => {
    fx.fake.server.inject({
      path: /threads_publish$/,
      ...graphError(500, 2, 'Service temporarily unavailable', { is_transient: true }),
    });
    const context = publishContext();
    await withRetry(
      () =>
        fx.publisher.publish(
          { message: 'reuse' },
          threadsAccount(fx.fake),
          [fx.host.png('r.png')],
          {},
          context,
        ),
      fastRetries(),
    );
    assert.equal(fx.fake.requestsTo('POST', /\/threads$/).length, 1, 'one container');
  });

  it('a wrong platformAccountId is target_unreachable', async () => {
    const account = { ...threadsAccount(fx.fake), platformAccountId: '999' };
    const error = await rejection(fx.publisher.publish({ message: 'x' }, account, [], {}, publishContext()));
    assert.equal(error.code, 'target_unreachable');
  });
});
