import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  defaultCollectionOffsetsMs,
  defaultWebhookRetrySchedule,
  envAllowedPrivateHosts,
  envBearerToken,
  envFlag,
  envHttpUrl,
  envLogLevel,
  envMilliseconds,
  envParsedBy,
  envPlatformOverrides,
  envPlatformRates,
  envPort,
  envPositive,
  envSecret,
  envWholeNumber,
  fromEnv,
  fromEnvFamily,
  parseWebhookRetrySchedule,
} from '@postwave/shared';
import { z } from 'zod';
import { parseEncryptionKey } from '../security/encryption.ts';

const text = z.string().optional();

/** `1h,6h,24h,3d,7d,30d`: ascending durations (ms, s, m, h or d). */
function parseDurations(value: string): readonly number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const offsets = value.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not a duration such as 6h or 3d`);
    return Number(match[1]) * units[match[2]!]!;
  });
  if (
    offsets.length === 0 ||
    offsets.length > 20 ||
    offsets.some((o, i) => o <= 0 || (i > 0 && o <= offsets[i - 1]!))
  )
    throw new Error('must list 1 to 20 ascending durations, such as 1h,6h,24h,3d,7d,30d');
  return offsets;
}
const encryptionKeys = envParsedBy((value) =>
  value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map(parseEncryptionKey),
);

/**
 * Every variable the Scheduler reads itself, each declared once: name, check, default. The
 * comments are the reference; docs/scheduler.env and .env.example describe the same (a test
 * holds them together). Platform modules and object storage read their own variables from `env`.
 */
export const schedulerSettings = {
  port: fromEnv('PORT', envPort.default(3000)),
  /** APP_URL: the public base URL (media URLs, OAuth redirects); default http://localhost:PORT. */
  appUrl: fromEnv('APP_URL', envHttpUrl.optional()),
  dataDir: fromEnv(
    'DATA_DIR',
    z
      .string()
      .default('./data')
      .transform((dir) => resolve(dir)),
  ),
  /** Where generated secrets are kept; default DATA_DIR/secrets. */
  secretsDir: fromEnv(
    'SECRETS_DIR',
    text.transform((dir) => (dir ? resolve(dir) : undefined)),
  ),
  /** How many reverse proxies in front of us to trust for X-Forwarded-For. */
  trustProxyHops: fromEnv('TRUST_PROXY', envWholeNumber(0, 10, 'number of proxy hops').default(0)),
  production: fromEnv(
    'NODE_ENV',
    text.transform((value) => value === 'production'),
  ),
  /** PostgreSQL when set; otherwise the embedded PGlite database under DATA_DIR. */
  databaseUrl: fromEnv('DATABASE_URL', text),
  databasePoolSize: fromEnv('DATABASE_POOL_SIZE', envPositive.default(10)),
  databasePreparedStatements: fromEnv('DATABASE_PREPARED_STATEMENTS', envFlag.default(true)),
  /** The repository's drizzle/ folder unless set. */
  migrationsDir: fromEnv(
    'MIGRATIONS_DIR',
    text.transform((dir) => (dir ? resolve(dir) : findMigrationsDir())),
  ),
  /** Unset: generated under SECRETS_DIR (see loadConfig). */
  authSecret: fromEnv('AUTH_SECRET', envSecret(32).optional()),
  /** Unset: generated under SECRETS_DIR (see loadConfig). */
  credentialsKey: fromEnv('CREDENTIALS_ENCRYPTION_KEY', envParsedBy(parseEncryptionKey).optional()),
  /** Earlier keys, still accepted for reading during a rotation. */
  previousCredentialsKeys: fromEnv('CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS', encryptionKeys.default([])),
  /** Unset disables the dispatch endpoint (404). */
  dispatchSecret: fromEnv('DISPATCH_SECRET', envBearerToken.optional()),
  /** How often idle OAuth connections are renewed ahead of expiry; 0 turns the sweep off. */
  credentialRefreshIntervalMs: fromEnv(
    'CREDENTIAL_REFRESH_INTERVAL_MS',
    envMilliseconds.default(6 * 3_600_000),
  ),
  /** How often the in-process feed poller looks for due feeds; 0: off. */
  feedsPollIntervalMs: fromEnv('FEEDS_POLL_INTERVAL_MS', envMilliseconds.default(60_000)),
  /** The periodic check of every connected account (server/accounts/health.ts). */
  accountHealth: {
    /** How old a check may get before the account is checked again; 0 turns checks off. */
    intervalMs: fromEnv('ACCOUNT_HEALTH_INTERVAL_MS', envMilliseconds.default(6 * 3_600_000)),
    /** Accounts checked at once by one instance. */
    concurrency: fromEnv('ACCOUNT_HEALTH_CONCURRENCY', envWholeNumber(1, 64).default(4)),
    /** A token expiring sooner than this that could not be renewed is `expiring`. */
    expiringWithinMs: fromEnv('ACCOUNT_HEALTH_EXPIRING_MS', envMilliseconds.default(3 * 86_400_000)),
  },
  /** Testing hook: background loops hold while this file exists (docs/testing.md#frozen-loops). */
  loopHoldFile: fromEnv('LOOP_HOLD_FILE', text),
  /** Post analytics collection (docs/analytics.md). */
  analytics: {
    /** This process collects metrics and followers; off: nothing is collected, pages show what was. */
    enabled: fromEnv('ANALYTICS_ENABLED', envFlag.default(true)),
    /** Accounts one instance collects for at once (each account's calls run one after another). */
    concurrency: fromEnv('ANALYTICS_CONCURRENCY', envWholeNumber(1, 64).default(4)),
    /** How often an instance looks for due collections. */
    intervalMs: fromEnv('ANALYTICS_INTERVAL_MS', envPositive.default(60_000)),
    /** When a posted target's figures are collected, after it posted (contract section H). */
    collectAfterMs: fromEnv(
      'ANALYTICS_COLLECT_AFTER',
      envParsedBy<readonly number[]>(parseDurations).default(defaultCollectionOffsetsMs),
    ),
  },
  dispatcher: {
    enabled: fromEnv('DISPATCHER_ENABLED', envFlag.default(true)),
    intervalMs: fromEnv('DISPATCHER_INTERVAL_MS', envPositive.default(15_000)),
    batchSize: fromEnv('DISPATCH_BATCH_SIZE', envPositive.default(200)),
    concurrency: fromEnv('DISPATCH_CONCURRENCY', envPositive.default(32)),
    timeBudgetMs: fromEnv('DISPATCH_TIME_BUDGET_MS', envPositive.default(25_000)),
    leaseMs: fromEnv('DISPATCH_LEASE_MS', envPositive.default(300_000)),
    maxAttempts: fromEnv('DISPATCH_MAX_ATTEMPTS', envPositive.default(5)),
    retryBaseMs: fromEnv('DISPATCH_RETRY_BASE_MS', envPositive.default(60_000)),
    /** How long before its due time a post with video has its media uploaded; 0: never; at most a day. */
    stageLeadMs: fromEnv(
      'DISPATCH_STAGE_LEAD_MS',
      envWholeNumber(0, 86_400_000, 'number of ms').default(600_000),
    ),
    /** How long before its due time a scheduled post's accounts and media are checked; 0: never. */
    preflightLeadMs: fromEnv(
      'DISPATCH_PREFLIGHT_LEAD_MS',
      envWholeNumber(0, 7 * 86_400_000, 'number of ms').default(3_600_000),
    ),
    /** How many targets are staged at once per process (uploads are long and heavy). */
    stageConcurrency: fromEnv('DISPATCH_STAGE_CONCURRENCY', envPositive.default(4)),
  },
  /** Webhook deliveries (docs/webhooks.md). */
  webhooks: {
    /** This process sends due deliveries. */
    workerEnabled: fromEnv('WEBHOOK_WORKER_ENABLED', envFlag.default(true)),
    /** The delays between attempts. */
    retrySchedule: fromEnv(
      'WEBHOOK_RETRY_SCHEDULE',
      envParsedBy<readonly number[]>(parseWebhookRetrySchedule).default(defaultWebhookRetrySchedule),
    ),
    /** Deliveries one process sends at once. */
    concurrency: fromEnv('WEBHOOK_CONCURRENCY', envPositive.default(16)),
  },
  /** Imports (docs/import-export.md). */
  imports: {
    /** One import request's time, media downloads and row checks included; rows not reached say so. */
    timeBudgetMs: fromEnv('IMPORT_TIME_BUDGET_MS', envPositive.default(25_000)),
    /** Imports (dry runs included) one user may send per minute, per process; beyond, 429. */
    perUserPerMinute: fromEnv('IMPORT_RATE_LIMIT', envPositive.default(10)),
  },
  maxUploadBytes: fromEnv('MAX_UPLOAD_BYTES', envPositive.default(512 * 1024 * 1024)),
  /**
   * The ffmpeg that makes video posters (docs/media-library.md): unset, `ffmpeg` on PATH if there
   * is one; `off`, none (videos show an icon). Resolved once at start (config.ts).
   */
  ffmpegPath: fromEnv('FFMPEG_PATH', text),
  /** The cap on any reply body read from a platform or a user-chosen host. */
  maxReplyBytes: fromEnv('MAX_REPLY_BYTES', envPositive.default(8 * 1024 * 1024)),
  /** Private hosts user-chosen URLs may reach anyway (operators, tests). */
  allowPrivateHosts: fromEnv('ALLOW_PRIVATE_HOSTS', envAllowedPrivateHosts),
  /** MCP OAuth token lifetimes. */
  oauth: {
    accessTokenTtlSeconds: fromEnv('OAUTH_ACCESS_TOKEN_TTL_SECONDS', envPositive.default(3600)),
    refreshTokenTtlSeconds: fromEnv('OAUTH_REFRESH_TOKEN_TTL_SECONDS', envPositive.default(30 * 86_400)),
  },
  /** Per-platform limits of concurrent publishes in this process. */
  publishConcurrency: fromEnvFamily('PUBLISH_CONCURRENCY_<PLATFORM>', (env) =>
    envPlatformOverrides(env, 'PUBLISH_CONCURRENCY_'),
  ),
  /** Per-bot/per-webhook limits under the platform's. */
  publishCredentialConcurrency: fromEnvFamily('PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>', (env) =>
    envPlatformOverrides(env, 'PUBLISH_CREDENTIAL_CONCURRENCY_'),
  ),
  /** The platforms' documented rates replaced (`30/1s`) or turned off (`off`). */
  publishRates: fromEnvFamily('PUBLISH_RATE_<PLATFORM>_<SCOPE>', (env) => envPlatformRates(env)),
  /** On PostgreSQL, how soon a dead instance's publish slots free themselves. */
  publishLimitsLeaseMs: fromEnv(
    'PUBLISH_LIMITS_LEASE_MS',
    envWholeNumber(1000, Number.MAX_SAFE_INTEGER, 'number of ms').default(30_000),
  ),
  /** Added to every rate window, for the jitter between a grant and the platform's receipt. */
  publishRateMarginMs: fromEnv('PUBLISH_LIMITS_RATE_MARGIN_MS', envMilliseconds.default(100)),
  google: {
    clientId: fromEnv('GOOGLE_CLIENT_ID', text),
    clientSecret: fromEnv('GOOGLE_CLIENT_SECRET', text),
    authorizeUrl: fromEnv(
      'GOOGLE_OAUTH_AUTHORIZE_URL',
      z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
    ),
    tokenUrl: fromEnv('GOOGLE_OAUTH_TOKEN_URL', z.url().default('https://oauth2.googleapis.com/token')),
  },
  /** GitHub sign-in; `baseUrl` is https://github.com (unset) or a GitHub Enterprise Server. */
  github: {
    clientId: fromEnv('GITHUB_CLIENT_ID', text),
    clientSecret: fromEnv('GITHUB_CLIENT_SECRET', text),
    baseUrl: fromEnv('GITHUB_BASE_URL', envHttpUrl.optional()),
  },
  /** Outgoing e-mail: SMTP_URL wins over SMTP_HOST/PORT/USER/PASSWORD; neither: no e-mail. */
  smtp: {
    url: fromEnv(
      'SMTP_URL',
      z
        .string()
        .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
        .optional(),
    ),
    host: fromEnv('SMTP_HOST', text),
    port: fromEnv('SMTP_PORT', envWholeNumber(1, 65_535, 'port number').default(587)),
    /** Implicit TLS; default true on port 465. */
    secure: fromEnv('SMTP_SECURE', envFlag.optional()),
    user: fromEnv('SMTP_USER', text),
    password: fromEnv('SMTP_PASSWORD', text),
    /** Default: no-reply at APP_URL's host name. */
    from: fromEnv('MAIL_FROM', text),
  },
  /** How long a password reset link works. */
  passwordResetTtlSeconds: fromEnv('PASSWORD_RESET_TTL_SECONDS', envPositive.default(30 * 60)),
  /** How long an e-mail verification link works. */
  emailVerificationTtlSeconds: fromEnv('EMAIL_VERIFICATION_TTL_SECONDS', envPositive.default(48 * 3600)),
  logLevel: fromEnv('LOG_LEVEL', envLogLevel.default('info')),
  /** How long a stop waits for in-flight publishes before exiting. */
  shutdownGraceMs: fromEnv('SHUTDOWN_GRACE_MS', envMilliseconds.default(25_000)),
  /** Bearer token for `/metrics`; unset turns the endpoint off (404). */
  metricsToken: fromEnv('METRICS_TOKEN', envBearerToken.optional()),
  /** Retired; named in a warning, never obeyed. */
  retiredLoopbackFlag: fromEnv('POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK', text.transform(Boolean)),
};

/** The variables the Scheduler reads itself (tests hold docs/scheduler.env to this list). */
/** The repo-root `drizzle/` folder, whether we run from the repo root or from `web/`. */
function findMigrationsDir(): string {
  const candidates = [resolve('drizzle'), resolve('..', 'drizzle')];
  return candidates.find((dir) => existsSync(resolve(dir, 'meta', '_journal.json'))) ?? candidates[0]!;
}
