import { PlatformError } from '../../errors.ts';
import type { OptionChoice } from '../manifest.ts';
import type { LemmyApi } from './api.ts';
import { communityPageSize, communityPattern } from './limits.ts';

export interface Community {
  id: number;
  name: string;
  title: string;
  /** `name@host` of the community's home instance. */
  handle: string;
  icon?: string;
  subscribers?: number;
}

interface CommunityView {
  community?: { id?: unknown; name?: unknown; title?: unknown; actor_id?: unknown; icon?: unknown };
  counts?: { subscribers?: unknown };
}

interface CommunityResponse {
  community_view?: CommunityView;
}

/** Pages of subscriptions read at most: 20 × 50, the 1,000 choices one field keeps. */
const maxSubscriptionPages = 20;

/**
 * `GET /api/v3/community?name=…` for the account's community (`platformAccountId`) or the
 * `community` option (`name@instance`, `!name@instance` or a local `name`): its id to post in, and
 * its canonical `name@host`. A community on the account's own instance is asked for by its bare name.
 */
export async function resolveCommunity(api: LemmyApi, named: string): Promise<Community> {
  const wanted = named.trim().replace(/^!/, '');
  const [name, host] = wanted.split('@') as [string, string | undefined];
  if (!communityPattern.test(named.trim()))
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

/**
 * The `community` option's choices: the communities the logged-in user is subscribed to
 * (`GET /api/v3/community/list?type_=Subscribed`, 50 a page until a short page), each as
 * `name@host` (the host of its `actor_id`, as `resolveCommunity` names it) labelled with its title.
 */
export async function subscribedCommunities(api: LemmyApi): Promise<OptionChoice[]> {
  const choices: OptionChoice[] = [];
  for (let page = 1; page <= maxSubscriptionPages; page++) {
    const answer = await api.call<{ communities?: unknown }>({
      method: 'GET',
      path: '/api/v3/community/list',
      operation: 'read',
      query: { type_: 'Subscribed', limit: String(communityPageSize), page: String(page) },
    });
    const views = Array.isArray(answer.communities) ? (answer.communities as CommunityView[]) : [];
    for (const view of views) {
      const community = parseCommunity(view, api);
      if (community)
        choices.push({ value: community.handle, label: `${community.title} (${community.handle})` });
    }
    if (views.length < communityPageSize) break;
  }
  return choices;
}

function communityOf(answer: CommunityResponse, api: LemmyApi): Community {
  const community = parseCommunity(answer.community_view, api);
  if (!community)
    throw new PlatformError(
      'platform_unavailable',
      `${new URL(api.origin).host} did not answer like a Lemmy server`,
    );
  return community;
}

function parseCommunity(view: CommunityView | undefined, api: LemmyApi): Community | undefined {
  const c = view?.community;
  if (!c || typeof c.id !== 'number' || typeof c.name !== 'string') return undefined;
  let host = new URL(api.origin).host;
  try {
    if (typeof c.actor_id === 'string') host = new URL(c.actor_id).host;
  } catch {
    // Keep the instance's host.
  }
  const subscribers = view?.counts?.subscribers;
  return {
    id: c.id,
    name: c.name,
    title: typeof c.title === 'string' && c.title.trim() ? c.title.trim().slice(0, 100) : c.name,
    handle: `${c.name}@${host}`,
    ...(typeof c.icon === 'string' && /^https?:\/\/\S{1,2000}$/.test(c.icon) ? { icon: c.icon } : {}),
    ...(typeof subscribers === 'number' ? { subscribers } : {}),
  };
}
