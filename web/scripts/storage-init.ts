/**
 * Prepares the S3-compatible bucket named by OBJECT_STORAGE_*: creates it, sets the CORS rule for
 * presigned browser uploads from APP_URL (plus STORAGE_CORS_ORIGINS, comma-separated) and public
 * read of objects (STORAGE_PUBLIC_READ=false skips that). Idempotent; compose runs it once at start.
 */
import { objectStorageConfigFromEnv } from '@postwave/shared';
import { setUpBucket } from '@postwave/shared/storage/bucket-setup';

const config = objectStorageConfigFromEnv(process.env);
if (!config) {
  console.error(
    'storage-init: set OBJECT_STORAGE_BUCKET, _ACCESS_KEY_ID, _SECRET_ACCESS_KEY (and _ENDPOINT)',
  );
  process.exit(1);
}
const origins = [process.env.APP_URL, ...(process.env.STORAGE_CORS_ORIGINS ?? '').split(',')]
  .map((origin) => origin?.trim().replace(/\/+$/, ''))
  .filter((origin): origin is string => Boolean(origin));
if (origins.length === 0) {
  console.error('storage-init: set APP_URL (the origin browsers upload from)');
  process.exit(1);
}

const attempts = 30;
for (let attempt = 1; ; attempt++) {
  try {
    const report = await setUpBucket(config, {
      allowedOrigins: origins,
      publicRead: process.env.STORAGE_PUBLIC_READ !== 'false',
    });
    console.log(JSON.stringify({ name: config.bucket, origins, ...report }));
    if (report.cors === 'not_supported') {
      console.log('storage-init: this store sets CORS server-wide (MinIO: MINIO_API_CORS_ALLOW_ORIGIN)');
    }
    break;
  } catch (error) {
    // The store may still be starting (compose starts both at once).
    if (attempt >= attempts) {
      console.error(`storage-init: ${(error as Error).message}`);
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
