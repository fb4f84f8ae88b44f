import { z } from 'zod';
import { AccountId } from './account.ts';
import { MediaReference } from './media.ts';

/** `queue` (Scheduler only): the next free slot of each target account's queue. */
export const postingModes = ['now', 'schedule', 'draft', 'queue'] as const;
export const PostingMode = z.enum(postingModes);
export type PostingMode = z.infer<typeof PostingMode>;

export const AccountOptions = z
  .record(z.string(), z.record(z.string(), z.unknown()))
  .meta({ id: 'AccountOptions', description: 'Per-account platform options, keyed by account id.' });
export type AccountOptions = z.infer<typeof AccountOptions>;

/**
 * The wire shape. `postingMode` is any string here so that a well-typed but unknown mode
 * is reported as 422 (validation) rather than 400 (malformed), as the contract asks.
 */
export const PostRequest = z
  .object({
    message: z.string().max(100_000),
    accountIds: z.array(AccountId).min(1).max(100),
    postingMode: z.string().meta({ enum: [...postingModes] }),
    media: z.union([MediaReference, z.array(MediaReference).max(50)]).optional(),
    scheduledAt: z.string().optional().meta({ format: 'date-time' }),
    accountOptions: AccountOptions.optional(),
  })
  .meta({ id: 'PostRequest' });
export type PostRequest = z.infer<typeof PostRequest>;

/** The fields validation needs (no posting mode). */
export const ValidationRequest = PostRequest.omit({ postingMode: true, scheduledAt: true })
  .extend({ postingMode: z.string().optional() })
  .meta({ id: 'ValidationRequest' });
export type ValidationRequest = z.infer<typeof ValidationRequest>;

/** A post request after parsing: media always an array, duplicate account ids removed. */
export interface NormalizedPost {
  message: string;
  accountIds: string[];
  postingMode: PostingMode;
  media: MediaReference[];
  scheduledAt?: Date;
  accountOptions: AccountOptions;
}

export function normalizeMedia(media: PostRequest['media']): MediaReference[] {
  if (media === undefined) return [];
  return Array.isArray(media) ? media : [media];
}
