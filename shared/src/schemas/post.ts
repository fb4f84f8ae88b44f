import { z } from 'zod';
import { AccountId } from './account.ts';
import { MediaReference } from './media.ts';

/** `queue` (Scheduler only): the next free slot of each target account's queue. */
export const postingModes = ['now', 'schedule', 'draft', 'queue'] as const;
export const PostingMode = z.enum(postingModes);
export type PostingMode = z.infer<typeof PostingMode>;

/** One account's options: its platform's own (checked against the platform's schema) and `firstComment`, a string. */
const OptionsOfAccount = z.object({ firstComment: z.string().optional() }).catchall(z.unknown());

export const AccountOptions = z.record(z.string(), OptionsOfAccount).meta({
  id: 'AccountOptions',
  description:
    "Per-account platform options, keyed by account id. Besides each platform's own options, `firstComment` (string) is posted right after the post: as a comment where the platform has comments (Instagram, Facebook, LinkedIn, YouTube), as a reply elsewhere (X, Bluesky, Mastodon, Threads); on a thread it answers the first message. A platform without first comments (its manifest's `features.firstComment` is false) is a validation error (`first_comment_unsupported`), and so is a comment longer than the platform's text limit (`first_comment_too_long`).",
});
export type AccountOptions = z.infer<typeof AccountOptions>;

/** One media reference or a list of them, as `media` takes everywhere in a post. */
const MediaField = z.union([MediaReference, z.array(MediaReference).max(50)]);

export const PostOverride = z
  .object({
    message: z.string().max(100_000).optional(),
    media: MediaField.optional(),
  })
  .meta({
    id: 'PostOverride',
    description:
      "One account's version of the post. A field given here replaces the base post's for this account only (`media: []` posts it without media); a field left out falls back to the base post.",
  });
export type PostOverride = z.infer<typeof PostOverride>;

export const Overrides = z.record(AccountId, PostOverride).meta({
  id: 'PostOverrides',
  description:
    'Per-account versions keyed by account id (e.g. a shorter text for X, hashtags for Instagram). Every key must be one of `accountIds` (422 `override_unknown_account` otherwise). Each target is validated with its own version.',
});
export type Overrides = z.infer<typeof Overrides>;

export const maxThreadParts = 25;

export const ThreadPart = z
  .object({ message: z.string().max(100_000), media: MediaField.optional() })
  .meta({ id: 'ThreadPart', description: 'One post of a thread after the first message.' });
export type ThreadPart = z.infer<typeof ThreadPart>;

export const Thread = z.array(ThreadPart).max(maxThreadParts).meta({
  id: 'Thread',
  description:
    "Up to 25 more posts after the first message, published in order as a reply chain (each a reply to the one before) on every target. Every part is validated with the platform's own rules; a target whose platform has no threads (its manifest's `features.thread` is false) gets the validation warning `thread_unsupported` and is posted with the first message only (its result has no `parts`), also when no target has threads. Overrides change only the first message. Each target's result lists `parts`; if a later part fails, the earlier ones stay posted and a retry continues from the failed part without posting any part twice.",
});

/**
 * A post's accounts, with messages a person can act on: the composer shows them under the field
 * as they are, and MCP tools answer them too.
 */
export const PostAccountIds = z
  .array(AccountId)
  .min(1, 'Choose at least one account')
  .max(100, 'Choose at most 100 accounts');

/**
 * The wire shape. `postingMode` is any string here so that a well-typed but unknown mode
 * is reported as 422 (validation) rather than 400 (malformed): the request is well formed, its value is not.
 */
export const PostRequest = z
  .object({
    message: z.string().max(100_000),
    accountIds: PostAccountIds,
    postingMode: z.string().meta({ enum: [...postingModes] }),
    media: MediaField.optional(),
    scheduledAt: z.string().optional().meta({ format: 'date-time' }),
    accountOptions: AccountOptions.optional(),
    overrides: Overrides.optional(),
    thread: Thread.optional(),
  })
  .meta({ id: 'PostRequest' });
export type PostRequest = z.infer<typeof PostRequest>;

/** The fields validation needs (no posting mode). */
export const ValidationRequest = PostRequest.omit({ postingMode: true, scheduledAt: true })
  .extend({
    postingMode: z
      .string()
      .meta({
        enum: [...postingModes],
        description: 'Optional; an unknown mode makes the answer `valid: false` (`invalid_posting_mode`).',
      })
      .optional(),
  })
  .meta({ id: 'ValidationRequest' });
export type ValidationRequest = z.infer<typeof ValidationRequest>;

/** An override after parsing: `media` an array when given. */
export interface NormalizedOverride {
  message?: string;
  media?: MediaReference[];
}

/** A thread part after parsing: `media` always an array. */
export interface NormalizedThreadPart {
  message: string;
  media: MediaReference[];
}

/** A post request after parsing: media always an array, duplicate account ids removed. */
export interface NormalizedPost {
  message: string;
  accountIds: string[];
  postingMode: PostingMode;
  media: MediaReference[];
  scheduledAt?: Date;
  accountOptions: AccountOptions;
  /** Absent or empty: every account gets the base post. */
  overrides?: Record<string, NormalizedOverride>;
  /** Absent or empty: no thread. */
  thread?: NormalizedThreadPart[];
}

export function normalizeMedia(media: PostRequest['media']): MediaReference[] {
  if (media === undefined) return [];
  return Array.isArray(media) ? media : [media];
}

export function normalizeOverrides(overrides: Overrides | undefined): Record<string, NormalizedOverride> {
  const normalized: Record<string, NormalizedOverride> = {};
  for (const [accountId, override] of Object.entries(overrides ?? {})) {
    normalized[accountId] = {
      ...(override.message !== undefined ? { message: override.message } : {}),
      ...(override.media !== undefined ? { media: normalizeMedia(override.media) } : {}),
    };
  }
  return normalized;
}

export function normalizeThread(thread: readonly ThreadPart[] | undefined): NormalizedThreadPart[] {
  return (thread ?? []).map((part) => ({ message: part.message, media: normalizeMedia(part.media) }));
}

/**
 * The decisions behind `overrides`, `thread`, `firstComment` and `altText`, for route descriptions
 * in both servers' OpenAPI documents.
 */
export const composerFieldsNote = [
  '\n\n**Per-account versions, threads, first comment, alt text.**',
  '`overrides[accountId]` replaces `message` and/or `media` for that account (keys must be among `accountIds`,',
  'else 422 `override_unknown_account`); each target is validated with its own version.',
  '`thread` (up to 25 parts) is published after the first message as a reply chain on every target; every part is',
  'validated with the platform’s rules. A target whose platform has no threads gets the warning `thread_unsupported`',
  '("<Platform> has no threads: only the first message is posted") and publishes only the first message (its result',
  'has no `parts`); this holds also when no target has threads, so one post can mix both kinds. Each part has its',
  'own idempotency key (`<key>:<account>:part:<n>`). If a part fails, the parts before it stay published, the',
  'target is `failed`, and `parts` says which part failed (later ones `pending`).',
  '`accountOptions[accountId].firstComment` is posted right after the post (and its thread): a comment where the',
  'platform has comments, else a reply to the first message; a platform without it is 422',
  '`first_comment_unsupported`, one over its text limit `first_comment_too_long`. If only the comment fails, the',
  'target is `failed` and `firstComment.status` says so.',
  'A media reference’s `altText` is sent as the platform’s alt text; over its limit is 422 `alt_text_too_long`,',
  'a platform without alt text gets the warning `alt_text_unsupported` and publishes the media without it.',
].join(' ');
