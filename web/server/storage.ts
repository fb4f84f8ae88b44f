import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { LocalStorage, objectStorageConfigFromEnv, S3Storage, type Storage } from '@postwave/shared';
import type { SchedulerConfig } from './config.ts';

/** S3 when OBJECT_STORAGE_* is configured, otherwise local disk under DATA_DIR/media. */
export function createStorage(config: SchedulerConfig): Storage {
  const s3 = objectStorageConfigFromEnv(config.env);
  if (s3) return new S3Storage(s3);
  return new LocalStorage({
    directory: join(config.dataDir, 'media'),
    publicBaseUrl: config.appUrl,
    // Derived rather than configured: one secret less to manage, and distinct from the session key.
    signingSecret: createHmac('sha256', config.authSecret)
      .update('postwave media upload signing')
      .digest('base64url'),
  });
}
