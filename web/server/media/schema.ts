import { z } from 'zod';

/*
 * Media shapes are the SDK's (MediaObject, UploadResponse, PresignRequest, PresignResponse): both
 * servers answer them alike. Only the Scheduler's own request shapes are declared here.
 */
export { MediaObject, PresignRequest, PresignResponse, UploadResponse } from '@postwave/shared';

/** `POST /api/v1/upload`: one file in the multipart field `file`. */
export const UploadForm = z.object({ file: z.string().meta({ format: 'binary' }) });

/** The stored media's key, as in its public URL. */
export const MediaKeyParam = { name: 'key', in: 'path' as const, schema: z.string() };
