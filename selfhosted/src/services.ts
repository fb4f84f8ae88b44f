import {
  accountNotFound,
  createSafeFetch,
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
import { type Config, ConfigError } from './config.ts';
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
    limiter: new PlatformLimiter(config.limits),
    requestHostFetch: createSafeFetch({ allowPrivateHosts: config.allowPrivateHosts }),
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
