import { PlatformError } from '../../errors.ts';
import type { LemmyApi } from './api.ts';

export interface Community {
  id: number;
  name: string;
  title: string;
  /** `name@host` of the community's home instance. */
  handle: string;
  icon?: string;
  subscribers?: number;
}

interface CommunityResponse {
  community_view?: {
    community?: { id?: unknown; name?: unknown; title?: unknown; actor_id?: unknown; icon?: unknown };
    counts?: { subscribers?: unknown };
  };
}

/**
 * `GET /api/v3/community?name=…` for the account's community (`platformAccountId`, `name@instance`,
 * `!name@instance` or a local `name`): its id to post in, and its canonical `name@host`. A community
 * on the account's own instance is asked for by its bare name.
 */
export async function resolveCommunity(api: LemmyApi, platformAccountId: string): Promise<Community> {
  const wanted = platformAccountId.trim().replace(/^!/, '');
  const [name, host] = wanted.split('@') as [string, string | undefined];
  if (!/^[a-z0-9_]{1,255}$/i.test(name) || (host !== undefined && !/^[a-z0-9.-]+(:\d+)?$/i.test(host)))
    throw new PlatformError('target_unreachable', 'The Lemmy community must be written as name@instance', {
      retryable: false,
    });
  const local = host === undefined || host.toLowerCase() === new URL(api.origin).host.toLowerCase();
  const answer = await api.call<CommunityResponse>({
    method: 'GET',
    path: '/api/v3/community',
    operation: 'community',
    query: { name: local ? name : `${name}@${host}` },
  });
  return communityOf(answer, api);
}

export async function communityById(api: LemmyApi, id: number): Promise<Community> {
  const answer = await api.call<CommunityResponse>({
    method: 'GET',
    path: '/api/v3/community',
    operation: 'community',
    query: { id: String(id) },
  });
  return communityOf(answer, api);
}

function communityOf(answer: CommunityResponse, api: LemmyApi): Community {
  const c = answer.community_view?.community;
  if (!c || typeof c.id !== 'number' || typeof c.name !== 'string')
    throw new PlatformError(
      'platform_unavailable',
      `${new URL(api.origin).host} did not answer like a Lemmy server`,
    );
  let host = new URL(api.origin).host;
  try {
    if (typeof c.actor_id === 'string') host = new URL(c.actor_id).host;
  } catch {
    // Keep the instance's host.
  }
  const subscribers = answer.community_view?.counts?.subscribers;
  return {
    id: c.id,
    name: c.name,
    title: typeof c.title === 'string' && c.title.trim() ? c.title.trim().slice(0, 100) : c.name,
    handle: `${c.name}@${host}`,
    ...(typeof c.icon === 'string' && /^https?:\/\/\S{1,2000}$/.test(c.icon) ? { icon: c.icon } : {}),
    ...(typeof subscribers === 'number' ? { subscribers } : {}),
  };
}
