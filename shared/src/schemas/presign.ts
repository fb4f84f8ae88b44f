import { z } from 'zod';
import { MediaObject } from './media.ts';

export const PresignRequest = z
  .object({
    filename: z.string().min(1).max(255),
    contentType: z.string().min(1).max(255),
    size: z.number().int().positive(),
  })
  .meta({ id: 'PresignRequest' });
export type PresignRequest = z.infer<typeof PresignRequest>;

export const PresignResponse = z
  .object({
    uploadUrl: z.string(),
    method: z.literal('PUT'),
    headers: z.record(z.string(), z.string()),
    expiresAt: z.string(),
    media: MediaObject,
  })
  .meta({
    id: 'PresignResponse',
    description: 'PUT exactly `size` bytes to `uploadUrl` with the returned headers before `expiresAt`.',
  });
export type PresignResponse = z.infer<typeof PresignResponse>;
