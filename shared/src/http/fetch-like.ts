import { keepAliveFetch } from './keep-alive-fetch.ts';

/**
 * The one fetch signature publishers and services are handed. Global `fetch` is one; the
 * SSRF-safe fetch (`createSafeFetch`) is another. Whoever builds a publisher's context decides
 * which: the Scheduler hands user-chosen hosts (a Mastodon instance, a Bluesky PDS) the safe one;
 * hosts an operator configured (env, the self-hosted accounts file) get the plain one.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * For hosts an operator configured: fetch's behaviour over keep-alive `node:http` agents, global
 * fetch for what that transport does not take on (keep-alive-fetch.ts).
 */
export const plainFetch: FetchLike = keepAliveFetch;
