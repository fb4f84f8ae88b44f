import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type AllowedHost,
  defaultWebhookRetrySchedule,
  type EnvRate,
  envPlatformOverrides,
  envPlatformRates,
  parseAllowedPrivateHosts,
  parseWebhookRetrySchedule,
} from '@postwave/shared';
import { z } from 'zod';
import { type EncryptionKey, parseEncryptionKey } from './security/encryption.ts';
import { persistedSecret } from './security/persisted-secret.ts';

export type Env = Readonly<Record<string, string | undefined>>;

/** Everything the Scheduler reads from its environment, validated once at start. */
export interface SchedulerConfig {
  port: number;
  /** Public base URL without a trailing slash; media URLs and OAuth redirects are built from it. */
  appUrl: string;
  dataDir: string;
  /** Where generated secrets are kept (SECRETS_DIR, default DATA_DIR/secrets). */
  secretsDir: string;
  /** How many reverse proxies in front of us to trust for X-Forwarded-For (TRUST_PROXY, default 0). */
  trustProxyHops: number;
  /** PostgreSQL when set; otherwise the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  migrationsDir: string;
  authSecret: string;
  credentialsKeys: { current: EncryptionKey; previous: EncryptionKey[] };
  /** Unset disables the dispatch endpoint (404). */
  dispatchSecret: string | undefined;
  /** How often idle OAuth connections are renewed ahead of expiry; 0 turns the sweep off. */
  credentialRefreshIntervalMs: number;
  /** `FEEDS_POLL_INTERVAL_MS`: how often the in-process feed poller looks for due feeds; 0: off. */
  feedsPollIntervalMs: number;
  /** The periodic check of every connected account (server/accounts/health.ts). */
  accountHealth: {
    /** `ACCOUNT_HEALTH_INTERVAL_MS`: how old a check may get before the account is checked again; 0 turns checks off. */
    intervalMs: number;
    /** `ACCOUNT_HEALTH_CONCURRENCY`: accounts checked at once by one instance. */
    concurrency: number;
    /** `ACCOUNT_HEALTH_EXPIRING_MS`: a token expiring sooner than this that could not be renewed is `expiring`. */
    expiringWithinMs: number;
  };
  dispatcher: {
    enabled: boolean;
    intervalMs: number;
    batchSize: number;
    concurrency: number;
    timeBudgetMs: number;
    leaseMs: number;
    maxAttempts: number;
    retryBaseMs: number;
    /** How long before its due time a post with video has its media uploaded (staged); 0: never. */
    stageLeadMs: number;
    /** How many targets are staged at once per process (uploads are long and heavy). */
    stageConcurrency: number;
  };
  /** Webhook deliveries (docs/webhooks.md): the in-process worker and the retry schedule. */
  webhooks: {
    /** `WEBHOOK_WORKER_ENABLED` (default true): this process sends due deliveries. */
    workerEnabled: boolean;
    /** `WEBHOOK_RETRY_SCHEDULE`: the delays between attempts (default 5s,5m,30m,2h,5h,10h,10h). */
    retrySchedule: readonly number[];
    /** `WEBHOOK_CONCURRENCY`: deliveries one process sends at once. */
    concurrency: number;
  };
  maxUploadBytes: number;
  /** `MAX_REPLY_BYTES`: the cap on any reply body read from a platform or a user-chosen host. */
  maxReplyBytes: number;
  /** `ALLOW_PRIVATE_HOSTS`: private hosts user-chosen URLs may reach anyway (operators, tests). */
  allowPrivateHosts: AllowedHost[];
  /** MCP OAuth token lifetimes. */
  oauth: { accessTokenTtlSeconds: number; refreshTokenTtlSeconds: number };
  /** `PUBLISH_CONCURRENCY_<PLATFORM>`: per-platform limits of concurrent publishes in this process. */
  publishConcurrency: Map<string, number>;
  /** `PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>`: per-bot/per-webhook limits under the platform's. */
  publishCredentialConcurrency: Map<string, number>;
  /** `PUBLISH_RATE_<PLATFORM>_<SCOPE>`: the platforms' documented rates replaced (`30/1s`) or turned off (`off`). */
  publishRates: Map<string, EnvRate | null>;
  /** `PUBLISH_LIMITS_LEASE_MS`: on PostgreSQL, how soon a dead instance's publish slots free themselves. */
  publishLimitsLeaseMs: number;
  /** `PUBLISH_LIMITS_RATE_MARGIN_MS`: added to every rate window, for the jitter between a grant and the platform's receipt. */
  publishRateMarginMs: number;
  google: OAuthClientConfig & { authorizeUrl: string; tokenUrl: string };
  /** GitHub sign-in; `baseUrl` is https://github.com or a GitHub Enterprise Server. */
  github: OAuthClientConfig & { baseUrl: string | undefined };
  /** Outgoing e-mail (password reset links); undefined when no SMTP server is configured. */
  mail: MailConfig | undefined;
  /** How long a password reset link works. */
  passwordResetTtlSeconds: number;
  /** How long an e-mail verification link works. */
  emailVerificationTtlSeconds: number;
  logLevel: string;
  /** How long SIGTERM waits for in-flight publishes before exiting (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Bearer token for `/metrics`; unset turns the endpoint off (404). */
  metricsToken: string | undefined;
  /** The raw environment, for the SDK's own readers (platform base URLs, OBJECT_STORAGE_*). */
  env: Env;
}

export interface MailConfig {
  /** An smtp:// or smtps:// URL, or the host/port/credentials it was built from. */
  transport: string | { host: string; port: number; secure: boolean; auth?: { user: string; pass: string } };
  from: string;
}

export interface OAuthClientConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));
const positiveInt = z.coerce.number().int().positive();
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v.trim() : undefined));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalString.pipe(z.url().optional()),
  DATA_DIR: z.string().default('./data'),
  SECRETS_DIR: optionalString,
  TRUST_PROXY: z.coerce
    .number({ message: 'must be a number of proxy hops (0 = trust none)' })
    .int('must be a whole number of proxy hops')
    .min(0)
    .max(10)
    .default(0),
  NODE_ENV: optionalString,
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: positiveInt.default(10),
  MIGRATIONS_DIR: optionalString,
  AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  CREDENTIALS_ENCRYPTION_KEY: optionalString,
  CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS: optionalString,
  DISPATCH_SECRET: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  DISPATCHER_ENABLED: boolean.default(true),
  DISPATCHER_INTERVAL_MS: positiveInt.default(15_000),
  FEEDS_POLL_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  CREDENTIAL_REFRESH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 60 * 60 * 1000),
  ACCOUNT_HEALTH_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(6 * 60 * 60 * 1000),
  ACCOUNT_HEALTH_CONCURRENCY: positiveInt.max(64).default(4),
  ACCOUNT_HEALTH_EXPIRING_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(3 * 24 * 60 * 60 * 1000),
  DISPATCH_BATCH_SIZE: positiveInt.default(200),
  DISPATCH_CONCURRENCY: positiveInt.default(32),
  DISPATCH_TIME_BUDGET_MS: positiveInt.default(25_000),
  DISPATCH_LEASE_MS: positiveInt.default(300_000),
  DISPATCH_MAX_ATTEMPTS: positiveInt.default(5),
  DISPATCH_RETRY_BASE_MS: positiveInt.default(60_000),
  // 0 turns staging off; at most a day, the longest any platform keeps an unpublished upload.
  DISPATCH_STAGE_LEAD_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  DISPATCH_STAGE_CONCURRENCY: positiveInt.default(4),
  PUBLISH_LIMITS_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  PUBLISH_LIMITS_RATE_MARGIN_MS: z.coerce.number().int().min(0).default(100),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(25_000),
  METRICS_TOKEN: optionalString.pipe(
    z.string().min(16, 'must be at least 16 characters (openssl rand -hex 32)').optional(),
  ),
  WEBHOOK_WORKER_ENABLED: boolean.default(true),
  WEBHOOK_RETRY_SCHEDULE: optionalString,
  WEBHOOK_CONCURRENCY: positiveInt.default(16),
  MAX_UPLOAD_BYTES: positiveInt.default(512 * 1024 * 1024),
  MAX_REPLY_BYTES: positiveInt.default(8 * 1024 * 1024),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(3600),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: positiveInt.default(30 * 24 * 60 * 60),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_OAUTH_AUTHORIZE_URL: z.url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_BASE_URL: optionalString.pipe(z.url().optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_SECURE: boolean.optional(),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  MAIL_FROM: optionalString,
  PASSWORD_RESET_TTL_SECONDS: positiveInt.default(30 * 60),
  EMAIL_VERIFICATION_TTL_SECONDS: positiveInt.default(48 * 60 * 60),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment. Secrets that are unset (AUTH_SECRET,
 * CREDENTIALS_ENCRYPTION_KEY) are generated once and kept under SECRETS_DIR (default
 * DATA_DIR/secrets), so the embedded default works out of the box. In production
 * (NODE_ENV=production) every start warns while a generated secret is in use: a backup of the
 * data directory then holds the keys beside the data they protect.
 */
export function loadConfig(env: Env, warn: (message: string) => void = console.warn): SchedulerConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const secretsDir = e.SECRETS_DIR ? resolve(e.SECRETS_DIR) : join(dataDir, 'secrets');
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  if (env.POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK)
    warn(
      'POSTWAVE_UNSAFE_FETCH_ALLOW_LOOPBACK is no longer read: list the hosts in ALLOW_PRIVATE_HOSTS instead.',
    );
  const production = e.NODE_ENV === 'production';

  const generated = (variable: string, name: string, bytes: number, consequence: string): string => {
    let created = false;
    const value = persistedSecret(secretsDir, name, bytes, () => {
      created = true;
    });
    if (created || production) {
      warn(
        `${variable} is not set: ${created ? 'generated one' : 'using the one generated'} in ${join(secretsDir, name)}. ` +
          `${consequence}${production ? ` In production set ${variable}, or at least point SECRETS_DIR at storage that is not backed up with DATA_DIR.` : ''}`,
      );
    }
    return value;
  };
  const authSecret =
    e.AUTH_SECRET ??
    generated('AUTH_SECRET', 'auth-secret', 48, 'Whoever reads it can forge sign-in sessions.');
  let current: EncryptionKey;
  try {
    current = parseEncryptionKey(
      e.CREDENTIALS_ENCRYPTION_KEY ??
        generated(
          'CREDENTIALS_ENCRYPTION_KEY',
          'credentials-encryption-key',
          32,
          'Keep it safe: without it stored account credentials cannot be read, and with it they can.',
        ),
    );
  } catch (error) {
    throw new ConfigError(`CREDENTIALS_ENCRYPTION_KEY: ${(error as Error).message}`);
  }
  let previous: EncryptionKey[];
  try {
    previous = (e.CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map(parseEncryptionKey);
  } catch (error) {
    throw new ConfigError(`CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS: ${(error as Error).message}`);
  }

  return {
    port: e.PORT,
    appUrl,
    dataDir,
    secretsDir,
    trustProxyHops: e.TRUST_PROXY,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    migrationsDir: e.MIGRATIONS_DIR ? resolve(e.MIGRATIONS_DIR) : findMigrationsDir(),
    authSecret,
    credentialsKeys: { current, previous },
    dispatchSecret: e.DISPATCH_SECRET,
    credentialRefreshIntervalMs: e.CREDENTIAL_REFRESH_INTERVAL_MS,
    feedsPollIntervalMs: e.FEEDS_POLL_INTERVAL_MS,
    accountHealth: {
      intervalMs: e.ACCOUNT_HEALTH_INTERVAL_MS,
      concurrency: e.ACCOUNT_HEALTH_CONCURRENCY,
      expiringWithinMs: e.ACCOUNT_HEALTH_EXPIRING_MS,
    },
    dispatcher: {
      enabled: e.DISPATCHER_ENABLED,
      intervalMs: e.DISPATCHER_INTERVAL_MS,
      batchSize: e.DISPATCH_BATCH_SIZE,
      concurrency: e.DISPATCH_CONCURRENCY,
      timeBudgetMs: e.DISPATCH_TIME_BUDGET_MS,
      leaseMs: e.DISPATCH_LEASE_MS,
      maxAttempts: e.DISPATCH_MAX_ATTEMPTS,
      retryBaseMs: e.DISPATCH_RETRY_BASE_MS,
      stageLeadMs: e.DISPATCH_STAGE_LEAD_MS,
      stageConcurrency: e.DISPATCH_STAGE_CONCURRENCY,
    },
    webhooks: {
      workerEnabled: e.WEBHOOK_WORKER_ENABLED,
      retrySchedule: retrySchedule(e.WEBHOOK_RETRY_SCHEDULE),
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
    maxUploadBytes: e.MAX_UPLOAD_BYTES,
    maxReplyBytes: e.MAX_REPLY_BYTES,
    allowPrivateHosts: allowedPrivateHosts(env.ALLOW_PRIVATE_HOSTS),
    oauth: {
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
    },
    publishConcurrency: concurrencyOverrides(env, 'PUBLISH_CONCURRENCY_'),
    publishCredentialConcurrency: concurrencyOverrides(env, 'PUBLISH_CREDENTIAL_CONCURRENCY_'),
    publishRates: rateOverrides(env),
    publishLimitsLeaseMs: e.PUBLISH_LIMITS_LEASE_MS,
    publishRateMarginMs: e.PUBLISH_LIMITS_RATE_MARGIN_MS,
    google: {
      clientId: e.GOOGLE_CLIENT_ID,
      clientSecret: e.GOOGLE_CLIENT_SECRET,
      authorizeUrl: e.GOOGLE_OAUTH_AUTHORIZE_URL,
      tokenUrl: e.GOOGLE_OAUTH_TOKEN_URL,
    },
    github: {
      clientId: e.GITHUB_CLIENT_ID,
      clientSecret: e.GITHUB_CLIENT_SECRET,
      baseUrl: e.GITHUB_BASE_URL?.replace(/\/+$/, ''),
    },
    mail: mailConfig(e, appUrl),
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    emailVerificationTtlSeconds: e.EMAIL_VERIFICATION_TTL_SECONDS,
    logLevel: e.LOG_LEVEL,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    metricsToken: e.METRICS_TOKEN,
    env,
  };
}

function retrySchedule(value: string | undefined): readonly number[] {
  if (value === undefined) return defaultWebhookRetrySchedule;
  try {
    return parseWebhookRetrySchedule(value);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  WEBHOOK_RETRY_SCHEDULE: ${(error as Error).message}`);
  }
}

function allowedPrivateHosts(value: string | undefined): AllowedHost[] {
  try {
    return parseAllowedPrivateHosts(value);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}

/** SMTP_URL wins over SMTP_HOST/PORT/USER/PASSWORD; neither means no outgoing mail. */
function mailConfig(e: z.infer<typeof EnvSchema>, appUrl: string): MailConfig | undefined {
  const from = e.MAIL_FROM ?? `Postwave <no-reply@${new URL(appUrl).hostname}>`;
  if (e.SMTP_URL) return { transport: e.SMTP_URL, from };
  if (!e.SMTP_HOST) return undefined;
  if ((e.SMTP_USER === undefined) !== (e.SMTP_PASSWORD === undefined))
    throw new ConfigError('Invalid configuration:\n  SMTP_USER and SMTP_PASSWORD go together');
  return {
    transport: {
      host: e.SMTP_HOST,
      port: e.SMTP_PORT,
      secure: e.SMTP_SECURE ?? e.SMTP_PORT === 465,
      ...(e.SMTP_USER && e.SMTP_PASSWORD ? { auth: { user: e.SMTP_USER, pass: e.SMTP_PASSWORD } } : {}),
    },
    from,
  };
}

/**
 * `PUBLISH_CONCURRENCY_TELEGRAM=50` and the like raise or lower a platform's default limit of
 * concurrent publishes (many bots, each with its own rate limit, can go out together).
 */
function concurrencyOverrides(env: Env, prefix: string): Map<string, number> {
  try {
    return envPlatformOverrides(env, prefix);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}

/** `PUBLISH_RATE_TELEGRAM_BOT=30/1s`, `PUBLISH_RATE_TELEGRAM_CHAT=off` and the like. */
function rateOverrides(env: Env): Map<string, EnvRate | null> {
  try {
    return envPlatformRates(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
}

/** The repo-root `drizzle/` folder, whether we run from the repo root or from `web/`. */
function findMigrationsDir(): string {
  const candidates = [resolve('drizzle'), resolve('..', 'drizzle')];
  return candidates.find((dir) => existsSync(resolve(dir, 'meta', '_journal.json'))) ?? candidates[0]!;
}
