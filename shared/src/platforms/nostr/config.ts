import { envBaseUrl, envPositiveInt } from '../env.ts';
import type { Env } from '../types.ts';
import { relayUrlProblem } from './relay-url.ts';

export interface NostrConfig {
  /** Publishes at once in the process; adapters override it with PUBLISH_CONCURRENCY_NOSTR. */
  concurrency: number;
  /** `NOSTR_RELAYS`: where notes go unless an account's `relays` option replaces them (operator-set, trusted). */
  relays: string[];
  /** How long one relay may take to connect and answer `OK` before it counts as timed out. */
  relayTimeoutMs: number;
  /** The web viewer a posted note links to: `<webUrl>/<nevent>`. */
  webUrl: string;
}

export const defaultNostrConfig: NostrConfig = {
  concurrency: 8,
  relays: [],
  relayTimeoutMs: 10_000,
  webUrl: 'https://njump.me',
};

/** Reads NOSTR_RELAYS, NOSTR_RELAY_TIMEOUT_MS and NOSTR_WEB_URL; throws at start on a bad value. */
export function nostrConfigFromEnv(env: Env): NostrConfig {
  return {
    ...defaultNostrConfig,
    relays: parseRelayList(env.NOSTR_RELAYS),
    relayTimeoutMs: envPositiveInt(env, 'NOSTR_RELAY_TIMEOUT_MS', defaultNostrConfig.relayTimeoutMs),
    webUrl: envBaseUrl(env, 'NOSTR_WEB_URL', defaultNostrConfig.webUrl),
  };
}

/** Comma-separated `wss://` or `ws://` URLs, duplicates dropped; a malformed entry stops the start. */
export function parseRelayList(value: string | undefined): string[] {
  const relays: string[] = [];
  for (const raw of (value ?? '').split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const problem = relayUrlProblem(entry);
    if (problem) throw new Error(`NOSTR_RELAYS: "${entry}" ${problem}`);
    if (!relays.includes(entry)) relays.push(entry);
  }
  return relays;
}
