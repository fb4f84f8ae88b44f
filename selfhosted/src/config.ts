import { hkdfSync } from 'node:crypto';
import { resolve } from 'node:path';
import {
  type Env,
  envAllowedPrivateHosts,
  envBearerToken,
  envConfig,
  envConfigMessage,
  envHttpUrl,
  envLogLevel,
  envMilliseconds,
  envParsedBy,
  envPlatformOverrides,
  envPlatformRates,
  envPort,
  envPositive,
  fromEnv,
  fromEnvFamily,
  isWebhookSecret,
  parseWebhookRetrySchedule,
  weakTokenWarning,
} from '@postwave/shared';
import { z } from 'zod';

export type { Env } from '@postwave/shared';

const defaultShutdownGraceMs = 25_000;
const minApiKeyLength = 32;
const apiKeyRequired = 'is required: set it to the shared API key clients send in x-api-key';

/**
 * Every variable this server reads itself, each declared once: name, check, default. The comments
 * are the reference; docs/selfhosted.env and .env.example describe the same (a test holds them
 * together). Platform modules and object storage read their own variables from `env`.
 */
const selfhostedSettings = {
  apiKey: fromEnv(
    'SERVICE_API_KEY',
    z
      .string({ error: apiKeyRequired })
      // The key also keys the presign HMAC: a short one can be guessed offline from one signed URL.
      .min(
        minApiKeyLength,
        `is too short: use at least ${minApiKeyLength} characters (generate one with \`openssl rand -hex 32\`)`,
      ),
  ),
  accountsFile: fromEnv(
    'SERVICE_ACCOUNTS_FILE',
    z
      .string()
      .optional()
      .transform((f) => (f ? resolve(f) : undefined)),
  ),
  /** Default: http://localhost:PORT. */
  publicUrl: fromEnv('SERVICE_PUBLIC_URL', envHttpUrl.optional()),
  storageDir: fromEnv(
    'SERVICE_STORAGE_DIR',
    z
      .string()
      .default('./data/media')
      .transform((dir) => resolve(dir)),
  ),
  port: fromEnv('PORT', envPort.default(3000)),
  host: fromEnv('HOST', z.string().optional()),
  maxUploadBytes: fromEnv('MAX_UPLOAD_BYTES', envPositive.default(512 * 1024 * 1024)),
  /** Cap on every reply body read from a platform. */
  maxReplyBytes: fromEnv('MAX_REPLY_BYTES', envPositive.default(8 * 1024 * 1024)),
  /**
   * Private hosts a request may name anyway (a Nostr relay in `accountOptions`): what a request
   * names is the caller's choice, fetched SSRF-safe; the accounts file's hosts are trusted.
   */
  allowPrivateHosts: fromEnv('ALLOW_PRIVATE_HOSTS', envAllowedPrivateHosts),
  logLevel: fromEnv('LOG_LEVEL', envLogLevel.default('info')),
  publish: {
    /** No publish of one post runs longer than this: retries stop and requests are cancelled. */
    timeoutMs: fromEnv('PUBLISH_TIMEOUT_MS', envPositive.default(120_000)),
    maxAttempts: fromEnv('PUBLISH_MAX_ATTEMPTS', envPositive.default(4)),
    retryBaseMs: fromEnv('PUBLISH_RETRY_BASE_MS', envPositive.default(500)),
    retryMaxMs: fromEnv('PUBLISH_RETRY_MAX_MS', envPositive.default(8_000)),
  },
  /** Concurrent publishes and rates (docs/selfhosted.md). */
  limits: {
    platformLimits: fromEnvFamily('PUBLISH_CONCURRENCY_<PLATFORM>', (env) =>
      envPlatformOverrides(env, 'PUBLISH_CONCURRENCY_'),
    ),
    /** Per credential (one Telegram bot, one Discord webhook); default: the platform limit. */
    credentialLimits: fromEnvFamily('PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>', (env) =>
      envPlatformOverrides(env, 'PUBLISH_CREDENTIAL_CONCURRENCY_'),
    ),
    /** `30/1s` or `off`: the platforms' documented rates, replaced. */
    rateLimits: fromEnvFamily('PUBLISH_RATE_<PLATFORM>_<SCOPE>', (env) => envPlatformRates(env)),
    rateMarginMs: fromEnv('PUBLISH_LIMITS_RATE_MARGIN_MS', envMilliseconds.default(100)),
  },
  idempotencyMaxEntries: fromEnv('IDEMPOTENCY_MAX_ENTRIES', envPositive.default(10_000)),
  /** How long a stop waits for in-flight publishes. */
  shutdownGraceMs: fromEnv('SHUTDOWN_GRACE_MS', envMilliseconds.optional()),
  /** Deprecated name of SHUTDOWN_GRACE_MS, still read when the new one is unset. */
  deprecatedShutdownTimeoutMs: fromEnv('SHUTDOWN_TIMEOUT_MS', envMilliseconds.optional()),
  /** Bearer token for `/metrics`; unset turns the endpoint off (404). */
  metricsToken: fromEnv('METRICS_TOKEN', envBearerToken.optional()),
  /** Express's `trust proxy`: true, false, a number of hops, or addresses/subnets. */
  trustProxy: fromEnv('TRUST_PROXY', z.string().optional().transform(parseTrustProxy)),
  /**
   * SERVICE_WEBHOOK_URL and SERVICE_WEBHOOK_SECRET (both or neither): publish results sent as
   * signed webhooks, best effort, retried in memory on SERVICE_WEBHOOK_RETRY_SCHEDULE.
   */
  webhook: {
    url: fromEnv('SERVICE_WEBHOOK_URL', envHttpUrl.optional()),
    secret: fromEnv(
      'SERVICE_WEBHOOK_SECRET',
      z
        .string()
        .refine(
          isWebhookSecret,
          'must be a Standard Webhooks secret: whsec_ followed by at least 16 random bytes in base64 (generate one with `echo whsec_$(openssl rand -base64 32)`)',
        )
        .optional(),
    ),
    retrySchedule: fromEnv(
      'SERVICE_WEBHOOK_RETRY_SCHEDULE',
      envParsedBy(parseWebhookRetrySchedule).default([5_000, 30_000, 120_000, 600_000, 1_800_000]),
    ),
  },
};

export { selfhostedSettings };

/** The settings with the values derived from several variables filled in. */
const SelfhostedEnv = envConfig(selfhostedSettings).transform((settings, ctx) => {
  const { webhook, deprecatedShutdownTimeoutMs, shutdownGraceMs, publicUrl, ...rest } = settings;
  if ((webhook.url === undefined) !== (webhook.secret === undefined)) {
    const [missing, given] = webhook.url
      ? ['SERVICE_WEBHOOK_SECRET', 'SERVICE_WEBHOOK_URL']
      : ['SERVICE_WEBHOOK_URL', 'SERVICE_WEBHOOK_SECRET'];
    ctx.addIssue({
      code: 'custom',
      path: [missing],
      message: `is required with ${given} (receivers verify the signature made with the secret)`,
    });
  }
  const warnings: string[] = [];
  if (deprecatedShutdownTimeoutMs !== undefined && shutdownGraceMs === undefined)
    warnings.push('SHUTDOWN_TIMEOUT_MS is deprecated: rename it SHUTDOWN_GRACE_MS.');
  const weakMetricsToken = weakTokenWarning('METRICS_TOKEN', settings.metricsToken);
  if (weakMetricsToken) warnings.push(weakMetricsToken);
  return {
    ...rest,
    /** Derived from the API key so presigned local uploads need no extra secret. */
    signingSecret: deriveSigningSecret(settings.apiKey),
    publicUrl: publicUrl ?? `http://localhost:${settings.port}`,
    shutdownGraceMs: shutdownGraceMs ?? deprecatedShutdownTimeoutMs ?? defaultShutdownGraceMs,
    webhook:
      webhook.url && webhook.secret
        ? { url: webhook.url, secret: webhook.secret, retrySchedule: webhook.retrySchedule, maxQueued: 1_000 }
        : undefined,
    /** Logged once at start (main.ts). */
    warnings,
  };
});

/** Everything the self-hosted server reads from its environment, checked once at start. */
export type Config = z.output<typeof SelfhostedEnv> & {
  /** The whole environment, for platform modules and object storage, which read their own variables. */
  env: Env;
};

export type PublishTiming = Config['publish'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and checks every setting once; throws ConfigError naming each bad variable. */
export function loadConfig(env: Env): Config {
  const parsed = SelfhostedEnv.safeParse(env);
  if (!parsed.success) throw new ConfigError(envConfigMessage(parsed.error, ' '));
  return { ...parsed.data, env };
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
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  const hops = Number(value);
  return Number.isInteger(hops) && hops >= 0 ? hops : value;
}
