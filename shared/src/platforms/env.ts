import type { Env } from './types.ts';

/**
 * Reads an http(s) base URL from the environment, without a trailing slash. Throws at start
 * on a malformed value, so a typo is not discovered at the first publish.
 */
export function envBaseUrl(env: Env, name: string, fallback: string): string {
  const raw = (env[name] || fallback).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

/** Reads a positive whole number (bytes, counts) from the environment; throws at start on a bad value. */
export function envPositiveInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  }
  return value;
}

/**
 * Per-platform numbers from variables named `<prefix><PLATFORM>` (e.g. `PUBLISH_CONCURRENCY_TELEGRAM=50`),
 * keyed by lower-case platform id. Empty values are ignored; a value that is not a positive whole
 * number throws at start, naming the variable.
 */
export function envPlatformOverrides(env: Env, prefix: string): Map<string, number> {
  const overrides = new Map<string, number>();
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(prefix) || value === undefined || value.trim() === '') continue;
    const platform = name.slice(prefix.length);
    if (!/^[A-Z0-9_]+$/.test(platform)) continue;
    overrides.set(platform.toLowerCase(), envPositiveInt(env, name, 0));
  }
  return overrides;
}
