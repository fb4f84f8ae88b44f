import { PlatformError } from '../../errors.ts';
import type { PublishResult } from '../types.ts';
import { threadsCall } from './api.ts';
import type { ThreadsConfig } from './config.ts';
import { defaultDailyQuota } from './limits.ts';

/* What a publish asks of the profile before (and instead of) posting: its quota, its latest posts. */

interface QuotaAnswer {
  data?: { quota_usage?: number; config?: { quota_total?: number; quota_duration?: number } }[];
}

/** Refuses a publish the profile's publishing quota (threads_publishing_limit) has no room for. */
export async function checkQuota(
  config: ThreadsConfig,
  userId: string,
  token: string,
  signal: AbortSignal,
): Promise<void> {
  const answer = await threadsCall<QuotaAnswer>(config.apiUrl, {
    method: 'GET',
    path: `/${encodeURIComponent(userId)}/threads_publishing_limit`,
    params: { fields: 'quota_usage,config' },
    accessToken: token,
    what: 'the publishing limit check',
    signal,
  });
  const entry = answer.data?.[0];
  const used = entry?.quota_usage;
  const total = entry?.config?.quota_total ?? defaultDailyQuota;
  if (typeof used === 'number' && used >= total) {
    const hours = Math.round((entry?.config?.quota_duration ?? 86_400) / 3600);
    throw new PlatformError(
      'rate_limited',
      `This Threads profile has used its publishing limit: ${used} of ${total} posts in the last ${hours} hours. Posting frees up as earlier posts age past ${hours} hours; try again later.`,
      { retryable: false },
    );
  }
}

/**
 * The profile's post with this text published since `since`, from its latest posts; a reply
 * (a thread part, a first comment) is listed under `/{user}/replies`, not `/{user}/threads`.
 */
export async function findRecentPost(
  config: ThreadsConfig,
  userId: string,
  token: string,
  text: string,
  since: number,
  signal: AbortSignal,
  edge: 'threads' | 'replies',
): Promise<PublishResult | undefined> {
  try {
    const answer = await threadsCall<{
      data?: { id?: string; text?: string; permalink?: string; timestamp?: string }[];
    }>(config.apiUrl, {
      method: 'GET',
      path: `/${encodeURIComponent(userId)}/${edge}`,
      params: { fields: 'id,text,permalink,timestamp', limit: '10' },
      accessToken: token,
      what: 'the recent posts lookup',
      signal,
    });
    const match = answer.data?.find(
      (candidate) =>
        candidate.id &&
        (candidate.text ?? '') === text &&
        (!candidate.timestamp || Date.parse(candidate.timestamp) >= since - 60_000),
    );
    if (!match?.id) return undefined;
    return { platformPostId: match.id, ...(match.permalink ? { url: match.permalink } : {}) };
  } catch {
    return undefined;
  }
}
