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

/** A rate from the environment: `30/1s`, `20/60s`, `5/2s`, `100/500ms`, `1000/1m`; `off` turns a rate off. */
export interface EnvRate {
  limit: number;
  windowMs: number;
}

const rateUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Rate overrides from variables named `PUBLISH_RATE_<PLATFORM>_<SCOPE>` (e.g.
 * `PUBLISH_RATE_TELEGRAM_BOT=30/1s`), keyed `<platform>:<scope>` in lower case; the scope is the
 * name's last word, so platform ids with underscores work. `off` maps to null (no limit). A
 * malformed value throws at start, naming the variable.
 */
export function envPlatformRates(env: Env, prefix = 'PUBLISH_RATE_'): Map<string, EnvRate | null> {
  const rates = new Map<string, EnvRate | null>();
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith(prefix) || raw === undefined || raw.trim() === '') continue;
    const match = /^([A-Z0-9_]+)_([A-Z0-9]+)$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const key = `${match[1]!.toLowerCase()}:${match[2]!.toLowerCase()}`;
    const value = raw.trim().toLowerCase();
    if (value === 'off') {
      rates.set(key, null);
      continue;
    }
    const parsed = /^(\d+)\s*\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m|h)$/.exec(value);
    const limit = parsed ? Number(parsed[1]) : 0;
    const windowMs = parsed ? Number(parsed[2] ?? 1) * rateUnits[parsed[3]!]! : 0;
    if (!parsed || !Number.isSafeInteger(limit) || limit <= 0 || !(windowMs >= 1)) {
      throw new Error(`${name} must look like 30/1s, 20/60s or 500/1m (or be "off"), got "${raw}"`);
    }
    rates.set(key, { limit, windowMs: Math.round(windowMs) });
  }
  return rates;
}
