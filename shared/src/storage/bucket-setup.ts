import type { ObjectStorageConfig } from './s3-config.ts';

export interface BucketSetupReport {
  bucket: 'created' | 'existed';
  cors: 'applied' | 'not_supported';
  publicRead: 'applied' | 'not_supported' | 'skipped';
}

/**
 * Makes a fresh S3-compatible bucket usable by Postwave: creates it, adds the CORS rule browsers
 * need for presigned uploads (PUT with Content-Type from the app's origin, GET for previews) and,
 * unless told otherwise, lets anyone read objects (platforms fetch media by public URL; keys are
 * unguessable). Safe to run at every start. Services that set CORS server-wide (MinIO:
 * MINIO_API_CORS_ALLOW_ORIGIN) answer NotImplemented to the bucket call: reported, not fatal.
 */
export async function setUpBucket(
  config: ObjectStorageConfig,
  options: { allowedOrigins: string[]; publicRead?: boolean },
): Promise<BucketSetupReport> {
  const s3 = await import('@aws-sdk/client-s3');
  const client = new s3.S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // As S3Storage: several S3-compatible services reject the newer default checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const notImplemented = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NotImplemented' || e.$metadata?.httpStatusCode === 501;
  };
  try {
    let bucket: BucketSetupReport['bucket'] = 'existed';
    try {
      await client.send(new s3.HeadBucketCommand({ Bucket: config.bucket }));
    } catch {
      // Missing (404), or a store that does not answer HEAD on buckets: creating it tells.
      try {
        await client.send(new s3.CreateBucketCommand({ Bucket: config.bucket }));
        bucket = 'created';
      } catch (creating) {
        const name = (creating as { name?: string }).name;
        if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw creating;
      }
    }
    let cors: BucketSetupReport['cors'] = 'applied';
    try {
      await client.send(
        new s3.PutBucketCorsCommand({
          Bucket: config.bucket,
          CORSConfiguration: {
            CORSRules: [
              {
                AllowedOrigins: options.allowedOrigins,
                AllowedMethods: ['PUT', 'GET', 'HEAD'],
                AllowedHeaders: ['Content-Type', 'Content-Length'],
                ExposeHeaders: ['ETag'],
                MaxAgeSeconds: 3600,
              },
            ],
          },
        }),
      );
    } catch (error) {
      if (!notImplemented(error)) throw error;
      cors = 'not_supported';
    }
    let publicRead: BucketSetupReport['publicRead'] = 'skipped';
    if (options.publicRead !== false) {
      try {
        await client.send(
          new s3.PutBucketPolicyCommand({
            Bucket: config.bucket,
            Policy: JSON.stringify({
              Version: '2012-10-17',
              Statement: [
                {
                  Sid: 'PostwavePublicMedia',
                  Effect: 'Allow',
                  Principal: '*',
                  Action: ['s3:GetObject'],
                  Resource: [`arn:aws:s3:::${config.bucket}/*`],
                },
              ],
            }),
          }),
        );
        publicRead = 'applied';
      } catch (error) {
        if (!notImplemented(error)) throw error;
        publicRead = 'not_supported';
      }
    }
    return { bucket, cors, publicRead };
  } finally {
    client.destroy();
  }
}
