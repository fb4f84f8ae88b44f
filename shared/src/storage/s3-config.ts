import type { S3StorageOptions } from './s3.ts';

export type ObjectStorageConfig = Omit<S3StorageOptions, 'blobTtlMs'>;

const prefix = 'OBJECT_STORAGE_';

/**
 * S3 settings from `OBJECT_STORAGE_*`, or undefined when none is set (local disk is used then).
 * Setting only some of them is a mistake worth stopping for, so it throws naming what is missing.
 */
export function objectStorageConfigFromEnv(
  env: Record<string, string | undefined>,
): ObjectStorageConfig | undefined {
  const read = (name: string) => {
    const value = env[prefix + name]?.trim();
    return value ? value : undefined;
  };
  const anySet = Object.keys(env).some((name) => name.startsWith(prefix) && env[name]?.trim());
  if (!anySet) return undefined;

  const required = (name: string) => {
    const value = read(name);
    if (!value) {
      throw new Error(
        `${prefix}${name} is required when object storage is configured (some OBJECT_STORAGE_* variables are set)`,
      );
    }
    return value;
  };
  const bucket = required('BUCKET');
  const accessKeyId = required('ACCESS_KEY_ID');
  const secretAccessKey = required('SECRET_ACCESS_KEY');
  const endpoint = read('ENDPOINT');
  if (endpoint) parseHttpUrl(`${prefix}ENDPOINT`, endpoint);
  const region = read('REGION') ?? 'us-east-1';
  // S3-compatible services behind a custom endpoint (MinIO, ...) mostly need path-style URLs.
  const forcePathStyle = parseBoolean(
    `${prefix}FORCE_PATH_STYLE`,
    read('FORCE_PATH_STYLE'),
    Boolean(endpoint),
  );
  const explicitPublicUrl = read('PUBLIC_URL');
  if (explicitPublicUrl) parseHttpUrl(`${prefix}PUBLIC_URL`, explicitPublicUrl);
  const publicBaseUrl = (
    explicitPublicUrl ?? defaultPublicUrl({ endpoint, bucket, region, forcePathStyle })
  ).replace(/\/+$/, '');
  return { endpoint, region, bucket, accessKeyId, secretAccessKey, forcePathStyle, publicBaseUrl };
}

function defaultPublicUrl(options: {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
}): string {
  if (!options.endpoint) return `https://${options.bucket}.s3.${options.region}.amazonaws.com`;
  const url = new URL(options.endpoint);
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  if (options.forcePathStyle) return `${base}/${options.bucket}`;
  return `${url.protocol}//${options.bucket}.${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function parseHttpUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an absolute http(s) URL`);
  }
  return url;
}

function parseBoolean(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false`);
}
