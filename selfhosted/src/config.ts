import { hkdfSync } from 'node:crypto';
import { resolve } from 'node:path';
import { isWebhookSecret, parseWebhookRetrySchedule } from '@postwave/shared';
import { z } from 'zod';

export type Env = Readonly<Record<string, string | undefined>>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const defaultShutdownGraceMs = 25_000;

/** A duration in milliseconds (0 allowed), or undefined when unset. */
const optionalMs = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed) || parsed < 0) {
      ctx.addIssue({ code: 'custom', message: `must be a whole number of milliseconds, got "${value}"` });
      return z.NEVER;
    }
    return parsed;
  });

const positiveInt = (fallback: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return fallback;
      const parsed = Number(value);
      if (!Number.isSafeInteger(parsed) || parsed <= 0) {
        ctx.addIssue({ code: 'custom', message: `must be a positive whole number, got "${value}"` });
        return z.NEVER;
      }
      return parsed;
    });

const httpUrl = z
  .string()
  .trim()
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), 'must be an http(s) URL')
  .transform((value) => value.replace(/\/+$/, ''));

export const minApiKeyLength = 32;

/** Environment variables this server reads itself; platform modules and object storage read theirs. */
const EnvSchema = z.object({
  SERVICE_API_KEY: z
    .string({ error: 'is required: set it to the shared API key clients send in x-api-key' })
    .trim()
    .min(1, 'is required: set it to the shared API key clients send in x-api-key')
    // The key also keys the presign HMAC: a short one can be guessed offline from one signed URL.
    .min(
      minApiKeyLength,
      `is too short: use at least ${minApiKeyLength} characters (generate one with \`openssl rand -hex 32\`)`,
    ),
  SERVICE_ACCOUNTS_FILE: z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? resolve(value) : undefined)),
  SERVICE_PUBLIC_URL: httpUrl.optional(),
  SERVICE_STORAGE_DIR: z
    .string()
    .trim()
    .optional()
    .transform((value) => resolve(value || './data/media')),
  PORT: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return 3000;
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        ctx.addIssue({ code: 'custom', message: `must be a port number (0-65535), got "${value}"` });
        return z.NEVER;
      }
      return port;
    }),
  HOST: z.string().trim().optional(),
  MAX_UPLOAD_BYTES: positiveInt(512 * 1024 * 1024),
  MAX_REPLY_BYTES: positiveInt(8 * 1024 * 1024),
  LOG_LEVEL: z
    .string()
    .trim()
    .optional()
    .transform((value) => value?.toLowerCase() || 'info')
    .pipe(z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` })),
  PUBLISH_TIMEOUT_MS: positiveInt(120_000),
  PUBLISH_MAX_ATTEMPTS: positiveInt(4),
  PUBLISH_RETRY_BASE_MS: positiveInt(500),
  PUBLISH_RETRY_MAX_MS: positiveInt(8_000),
  IDEMPOTENCY_MAX_ENTRIES: positiveInt(10_000),
  SHUTDOWN_GRACE_MS: optionalMs,
  /** Deprecated name of SHUTDOWN_GRACE_MS, still read when the new one is unset. */
  SHUTDOWN_TIMEOUT_MS: optionalMs,
  METRICS_TOKEN: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .refine((value) => value === undefined || value.length >= 16, {
      message: 'must be at least 16 characters (generate one with `openssl rand -hex 32`)',
    }),
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((value) => parseTrustProxy(value)),
  SERVICE_WEBHOOK_URL: httpUrl.optional(),
  SERVICE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .refine((value) => value === undefined || isWebhookSecret(value), {
      message:
        'must be a Standard Webhooks secret: whsec_ followed by at least 16 random bytes in base64 (generate one with `echo whsec_$(openssl rand -base64 32)`)',
    }),
  SERVICE_WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return [5_000, 30_000, 120_000, 600_000, 1_800_000];
      try {
        return parseWebhookRetrySchedule(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

export interface PublishTiming {
  /** No publish of one post runs longer than this: retries stop and requests are cancelled. */
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface Config {
  apiKey: string;
  /** Derived from the API key so presigned local uploads need no extra secret. */
  signingSecret: string;
  accountsFile: string | undefined;
  publicUrl: string;
  storageDir: string;
  port: number;
  host: string | undefined;
  maxUploadBytes: number;
  /** Cap on every reply body read from a platform (MAX_REPLY_BYTES, default 8 MiB). */
  maxReplyBytes: number;
  logLevel: (typeof logLevels)[number];
  publish: PublishTiming;
  idempotencyMaxEntries: number;
  /** How long SIGTERM waits for in-flight publishes (SHUTDOWN_GRACE_MS, default 25 s). */
  shutdownGraceMs: number;
  /** Bearer token for `/metrics`; unset turns the endpoint off (404). */
  metricsToken: string | undefined;
  trustProxy: boolean | number | string;
  /**
   * SERVICE_WEBHOOK_URL and SERVICE_WEBHOOK_SECRET (both or neither): publish results sent as
   * signed webhooks, best effort (SERVICE_WEBHOOK_RETRY_SCHEDULE, in memory).
   */
  webhook: { url: string; secret: string; retrySchedule: readonly number[]; maxQueued: number } | undefined;
  /** The whole environment, for platform modules and object storage, which read their own variables. */
  env: Env;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and checks every setting once; throws ConfigError naming each bad variable. */
export function loadConfig(env: Env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')} ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if ((e.SERVICE_WEBHOOK_URL === undefined) !== (e.SERVICE_WEBHOOK_SECRET === undefined)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.SERVICE_WEBHOOK_URL ? 'SERVICE_WEBHOOK_SECRET is required with SERVICE_WEBHOOK_URL' : 'SERVICE_WEBHOOK_URL is required with SERVICE_WEBHOOK_SECRET'} (receivers verify the signature made with the secret)`,
    );
  }
  return {
    apiKey: e.SERVICE_API_KEY,
    signingSecret: deriveSigningSecret(e.SERVICE_API_KEY),
    accountsFile: e.SERVICE_ACCOUNTS_FILE,
    publicUrl: e.SERVICE_PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    storageDir: e.SERVICE_STORAGE_DIR,
    port: e.PORT,
    host: e.HOST || undefined,
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    maxReplyBytes: e.MAX_REPLY_BYTES,
    logLevel: e.LOG_LEVEL,
    publish: {
      timeoutMs: e.PUBLISH_TIMEOUT_MS,
      maxAttempts: e.PUBLISH_MAX_ATTEMPTS,
      retryBaseMs: e.PUBLISH_RETRY_BASE_MS,
      retryMaxMs: e.PUBLISH_RETRY_MAX_MS,
    },
    idempotencyMaxEntries: e.IDEMPOTENCY_MAX_ENTRIES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS ?? e.SHUTDOWN_TIMEOUT_MS ?? defaultShutdownGraceMs,
    metricsToken: e.METRICS_TOKEN,
    trustProxy: e.TRUST_PROXY,
    webhook:
      e.SERVICE_WEBHOOK_URL && e.SERVICE_WEBHOOK_SECRET
        ? {
            url: e.SERVICE_WEBHOOK_URL,
            secret: e.SERVICE_WEBHOOK_SECRET,
            retrySchedule: e.SERVICE_WEBHOOK_RETRY_SCHEDULE,
            maxQueued: 1_000,
          }
        : undefined,
    env,
  };
}

/**
 * A fixed-label HKDF of the API key: the stateless server can verify the upload URLs it signed
 * without another secret, and the key itself never appears in a MAC.
 */
export function deriveSigningSecret(apiKey: string): string {
  return Buffer.from(
    hkdfSync('sha256', apiKey, 'postwave', 'postwave/selfhosted/signed-upload/v1', 32),
  ).toString('hex');
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  const hops = Number(value);
  return Number.isInteger(hops) && hops >= 0 ? hops : value;
}
