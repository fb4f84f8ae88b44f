import {
  accountNotFound,
  type EnvRate,
  envPlatformOverrides,
  envPlatformRates,
  LocalStorage,
  objectStorageConfigFromEnv,
  PlatformLimiter,
  PostingService,
  PublisherRegistry,
  S3Storage,
  type Storage,
} from '@postwave/shared';
import type { Logger } from 'pino';
import { AccountsStore, accountsNotConfigured } from './accounts.ts';
import { type Config, ConfigError, type Env } from './config.ts';
import { Idempotency } from './idempotency.ts';
import { Publishing } from './publishing.ts';
import { ServiceWebhook } from './webhook.ts';

export interface Services {
  logger: Logger;
  storage: Storage;
  publishers: PublisherRegistry;
  accounts: AccountsStore;
  publishing: Publishing;
  idempotency: Idempotency;
  /** SERVICE_WEBHOOK_URL: publish results as signed webhooks (best effort). */
  webhook: ServiceWebhook | undefined;
}

/**
 * Everything the routes need, built from the configuration. Throws ConfigError or
 * AccountsFileError for anything that should stop the server at start.
 */
export function createServices(config: Config, logger: Logger, overrides: Partial<Services> = {}): Services {
  const publishers = overrides.publishers ?? configured(() => PublisherRegistry.fromEnv(config.env));
  const storage = overrides.storage ?? configured(() => createStorage(config));
  const accounts = overrides.accounts ?? new AccountsStore(config.accountsFile, publishers);
  if (!overrides.accounts) accounts.loadSync();
  const posting = new PostingService({
    publishers,
    storage,
    logger,
    limiter: new PlatformLimiter({
      platformLimits: concurrencyOverrides(config.env),
      credentialLimits: concurrencyOverrides(config.env, 'PUBLISH_CREDENTIAL_CONCURRENCY_'),
      rateLimits: rateOverrides(config.env),
      rateMarginMs: envNonNegativeInt(config.env, 'PUBLISH_LIMITS_RATE_MARGIN_MS', 100),
    }),
    unknownAccount: (accountId) => (accounts.configured ? accountNotFound(accountId) : accountsNotConfigured),
  });
  const webhook =
    overrides.webhook ?? (config.webhook ? new ServiceWebhook(config.webhook, logger) : undefined);
  return {
    logger,
    webhook,
    storage,
    publishers,
    accounts,
    publishing: overrides.publishing ?? new Publishing(posting, accounts, config.publish, webhook),
    idempotency: overrides.idempotency ?? new Idempotency(config.apiKey, config.idempotencyMaxEntries),
  };
}

function createStorage(config: Config): Storage {
  const s3 = objectStorageConfigFromEnv(config.env);
  if (s3) return new S3Storage(s3);
  return new LocalStorage({
    directory: config.storageDir,
    publicBaseUrl: config.publicUrl,
    signingSecret: config.signingSecret,
  });
}

function configured<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
}

/**
 * `PUBLISH_CONCURRENCY_<PLATFORM>=n` raises or lowers a platform's overall limit of concurrent
 * publishes; `PUBLISH_CREDENTIAL_CONCURRENCY_<PLATFORM>=n` its limit per credential (one Telegram
 * bot, one Discord webhook). Without the latter, an overall override applies to one credential too.
 */
/** `PUBLISH_RATE_<PLATFORM>_<SCOPE>=30/1s` (or `off`): the platforms' documented rates, replaced. */
export function rateOverrides(env: Env): Map<string, EnvRate | null> {
  try {
    return envPlatformRates(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
}

function envNonNegativeInt(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ConfigError(`Invalid configuration: ${name} must be a whole number of ms, got "${raw}"`);
  return value;
}

export function concurrencyOverrides(env: Env, prefix = 'PUBLISH_CONCURRENCY_'): Map<string, number> {
  try {
    return envPlatformOverrides(env, prefix);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${(error as Error).message}`);
  }
}
