import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The subset of @20minutes/s3rver (untyped CommonJS) that tests use. */
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

export interface RunningS3 {
  endpoint: string;
  bucket: string;
  region: string;
  /** s3rver's built-in account; it verifies SigV4 signatures made with it. */
  accessKeyId: string;
  secretAccessKey: string;
  /** Options for `new S3Storage(...)` pointing at this server. */
  storageOptions: {
    endpoint: string;
    region: string;
    bucket: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: true;
    publicBaseUrl: string;
  };
  /** The `OBJECT_STORAGE_*` variables that point a server (self-hosted or Scheduler) at it. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server in-process on 127.0.0.1 (random port) backed by a temp directory.
 * Buckets are created through s3rver's `configureBuckets` option because CreateBucket from the
 * current AWS SDK fails against it.
 */
export async function startS3rver(options: { bucket?: string } = {}): Promise<RunningS3> {
  const S3rver = createRequire(import.meta.url)('@20minutes/s3rver') as S3rverConstructor;
  const bucket = options.bucket ?? 'postwave-test';
  const directory = await mkdtemp(join(tmpdir(), 'postwave-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    region: 'us-east-1',
    ...credentials,
    storageOptions: {
      endpoint,
      region: 'us-east-1',
      bucket,
      ...credentials,
      forcePathStyle: true,
      publicBaseUrl: `${endpoint}/${bucket}`,
    },
    env: () => ({
      OBJECT_STORAGE_ENDPOINT: endpoint,
      OBJECT_STORAGE_BUCKET: bucket,
      OBJECT_STORAGE_REGION: 'us-east-1',
      OBJECT_STORAGE_ACCESS_KEY_ID: credentials.accessKeyId,
      OBJECT_STORAGE_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    }),
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
