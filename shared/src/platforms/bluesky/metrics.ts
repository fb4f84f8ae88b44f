import type { AccountMetricName } from '../manifest.ts';
import type { MetricsTarget, MetricValues, PostMetricsResult } from '../types.ts';
import type { StrongRef } from './reply-ref.ts';
import type { XrpcRequest } from './xrpc.ts';

/** `app.bsky.feed.getPosts` takes up to 25 URIs. */
export const blueskyMetricsBatchSize = 25;

/** What metric collection needs of one account's XRPC client (see `BlueskyClient`). */
export interface BlueskyMetricsClient {
  call<T>(build: (accessJwt: string, did: string) => XrpcRequest): Promise<T>;
  findRecordIn(repo: string, collection: string, rkey: string): Promise<StrongRef | undefined>;
}

interface PostView {
  uri?: string;
  likeCount?: unknown;
  replyCount?: unknown;
  repostCount?: unknown;
  quoteCount?: unknown;
}

const count = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/**
 * `app.bsky.feed.getPosts` (25 URIs a call): `likeCount`, `replyCount`, `repostCount`,
 * `quoteCount`. The AppView leaves a deleted post out of its answer, but so it does a post it has
 * not indexed yet: a missing post is `gone` only when its own repository no longer holds the
 * record (`com.atproto.repo.getRecord` answers RecordNotFound); otherwise it is tried next time.
 */
export async function blueskyPostMetrics(
  client: BlueskyMetricsClient,
  targets: readonly MetricsTarget[],
): Promise<Map<string, PostMetricsResult>> {
  const results = new Map<string, PostMetricsResult>();
  for (let i = 0; i < targets.length; i += blueskyMetricsBatchSize) {
    const uris = targets.slice(i, i + blueskyMetricsBatchSize).map((t) => t.platformPostId);
    const answer = await client.call<{ posts?: PostView[] }>((token) => ({
      method: 'GET',
      nsid: 'app.bsky.feed.getPosts',
      token,
      params: { uris },
    }));
    for (const post of answer?.posts ?? []) {
      if (typeof post.uri !== 'string') continue;
      const metrics: MetricValues = {};
      const likes = count(post.likeCount);
      const comments = count(post.replyCount);
      const reposts = count(post.repostCount);
      const quotes = count(post.quoteCount);
      if (likes !== undefined) metrics.likes = likes;
      if (comments !== undefined) metrics.comments = comments;
      if (reposts !== undefined) metrics.reposts = reposts;
      if (quotes !== undefined) metrics.quotes = quotes;
      results.set(post.uri, { state: 'ok', metrics });
    }
    for (const uri of uris) {
      if (results.has(uri)) continue;
      const parts = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
      if (parts && !(await client.findRecordIn(parts[1]!, parts[2]!, parts[3]!)))
        results.set(uri, { state: 'gone' });
    }
  }
  return results;
}

/** `followersCount` of the account's own `app.bsky.actor.getProfile`. */
export async function blueskyAccountMetrics(
  client: BlueskyMetricsClient,
): Promise<Partial<Record<AccountMetricName, number>>> {
  const profile = await client.call<{ followersCount?: unknown }>((token, did) => ({
    method: 'GET',
    nsid: 'app.bsky.actor.getProfile',
    token,
    params: { actor: did },
  }));
  const followers = count(profile?.followersCount);
  return followers === undefined ? {} : { followers };
}
