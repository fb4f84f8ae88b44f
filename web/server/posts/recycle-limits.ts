/**
 * The contract's recycling limits (section I): a week to a year apart, at most 52 copies, up to 4 h
 * of jitter. Apart from recycle-schema.ts so that the composer reads the same bounds without
 * pulling the server's problem helpers into the browser bundle.
 */
export const recycleLimits = {
  intervalDays: { min: 7, max: 365 },
  maxTimes: { min: 1, max: 52 },
  jitterMinutes: { min: 0, max: 240 },
} as const;
