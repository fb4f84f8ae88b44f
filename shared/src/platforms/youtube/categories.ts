import { readJson } from '../../http/fetch.ts';
import type { GoogleAccessToken } from '../google-oauth.ts';
import type { OptionChoice } from '../manifest.ts';
import type { YouTubeConfig } from './config.ts';
import { failure, googleFetch } from './google-fetch.ts';

interface CategoryList {
  items?: { id: string; snippet?: { title?: string; assignable?: boolean } }[];
}

/** Where categories are looked up when the channel names no country (YouTube's own default market). */
const defaultRegion = 'US';

/**
 * The video categories this channel's uploads may use (the `categoryId` option's choices):
 * videoCategories.list for the channel's country (`snippet.country`, else US), only the
 * `assignable` ones, which are the ones videos.insert accepts. Titles in English (`hl` default).
 */
export async function videoCategoryChoices(
  config: YouTubeConfig,
  token: GoogleAccessToken,
  signal: AbortSignal,
): Promise<OptionChoice[]> {
  const channels = new URL(`${config.apiUrl}/channels`);
  channels.searchParams.set('part', 'snippet');
  channels.searchParams.set('mine', 'true');
  const channel = await googleFetch(token, channels, { signal }, 'the channel lookup');
  if (!channel.ok) throw await failure(channel, 'the channel lookup');
  const country = ((await readJson(channel)) as { items?: { snippet?: { country?: unknown } }[] } | undefined)
    ?.items?.[0]?.snippet?.country;
  const url = new URL(`${config.apiUrl}/videoCategories`);
  url.searchParams.set('part', 'snippet');
  url.searchParams.set(
    'regionCode',
    typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? country : defaultRegion,
  );
  const response = await googleFetch(token, url, { signal }, 'the video categories');
  if (!response.ok) throw await failure(response, 'the video categories');
  return (((await readJson(response)) as CategoryList | undefined)?.items ?? [])
    .filter((item) => item.snippet?.assignable === true)
    .map((item) => ({ value: item.id, label: item.snippet?.title ?? item.id }));
}
