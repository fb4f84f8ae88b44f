import type { AccountProfile } from '../types.ts';
import { tiktokCall } from './api.ts';

/** `creator_info/query`: what this creator may post now (TikTok asks apps to call it before every post). */
export interface CreatorInfo {
  creator_avatar_url?: string;
  creator_username?: string;
  creator_nickname?: string;
  privacy_level_options?: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

export function creatorInfo(apiUrl: string, accessToken: string, signal?: AbortSignal): Promise<CreatorInfo> {
  return tiktokCall<CreatorInfo>(apiUrl, {
    method: 'POST',
    path: '/v2/post/publish/creator_info/query/',
    accessToken,
    what: 'the creator info',
    signal,
  });
}

/** `GET /v2/user/info/` (scope user.info.basic): open_id, display name and avatar. */
export async function tiktokProfile(
  apiUrl: string,
  accessToken: string,
  signal?: AbortSignal,
): Promise<AccountProfile> {
  const { user } = await tiktokCall<{
    user?: { open_id?: string; display_name?: string; avatar_url?: string };
  }>(apiUrl, {
    method: 'GET',
    path: '/v2/user/info/',
    query: { fields: 'open_id,union_id,avatar_url,display_name' },
    accessToken,
    what: 'the profile lookup',
    signal,
  });
  return {
    name: user?.display_name || 'TikTok creator',
    ...(user?.avatar_url ? { avatarUrl: user.avatar_url } : {}),
    ...(user?.open_id ? { platformAccountId: user.open_id } : {}),
  };
}
