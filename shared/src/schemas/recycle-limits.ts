/**
 * The contract's recycling limits (section I): a week to a year apart, at most 52 copies, up to 4 h
 * of jitter. Here, framework-free and browser-safe, because both the Scheduler's request schema
 * (web/server/posts/recycle-schema.ts) and its composer check against them; components take no
 * values from web/server.
 */
export const recycleLimits = {
  intervalDays: { min: 7, max: 365 },
  maxTimes: { min: 1, max: 52 },
  jitterMinutes: { min: 0, max: 240 },
} as const;
