import { AccountId, MediaKey, PostAccountIds, postingModes } from '@postwave/shared';
import { z } from 'zod';

/*
 * Tool input schemas written for portability (the MCP Inspector's `--strict` check, clients that
 * map tool schemas onto a single-`type` dialect): every node carries a `type`, no type arrays, no
 * bare `{}` (so no `z.unknown()` and no loose objects). The services re-validate everything with
 * the shared schemas and the platforms' option schemas.
 */

// Described members keep zod from folding the union into a `type` array (which --strict flags).
const Primitive = z.union([
  z.string().describe('text'),
  z.number().describe('number'),
  z.boolean().describe('flag'),
]);
const FlatObject = z.record(z.string(), z.union([Primitive, z.array(Primitive)]));
const OptionValue = z.union([Primitive, z.array(z.union([Primitive, FlatObject])), FlatObject]);

export const McpAccountOptions = z
  .record(z.string(), z.record(z.string(), OptionValue))
  .describe(
    'Per-account platform options keyed by account id, e.g. {"<youtube account id>": {"title": "…", "privacyStatus": "unlisted"}}. `firstComment` (text) is posted right after the post, as a comment or a reply, where the platform supports it (get_platform_rules: features.firstComment). validate_post reports unknown or invalid options.',
  );

export const McpMedia = z
  .object({
    key: MediaKey.describe('The media key from upload_media_from_url or presign_upload'),
    id: z.string().max(200).optional(),
    url: z.string().max(4000).optional(),
    filename: z.string().max(255).optional(),
    contentType: z.string().max(255).optional(),
    size: z.number().optional(),
    storage: z.string().max(20).optional(),
    altText: z.string().max(5000).optional().describe('Description of the image for screen readers'),
  })
  .describe('A media object as returned by upload_media_from_url or presign_upload (resolved by key)');

export const McpMediaList = z
  .union([z.array(McpMedia).max(50), McpMedia])
  .describe('Media objects from upload_media_from_url or presign_upload, in order (one object or a list)');

export const McpAccountIds = PostAccountIds.describe('Account ids from list_accounts');
export const McpMessage = z.string().max(100_000).describe('The text of the post');
export const McpPostId = z.string().max(100).describe('The post id');
export const McpScheduledAt = z
  .string()
  .max(100)
  .describe('ISO 8601 date-time with an offset, in the future, e.g. 2026-12-01T09:30:00+01:00');
export const McpPostingMode = z
  .enum(postingModes)
  .describe(
    '"now" publishes at once, "schedule" at scheduledAt, "queue" at the next free slot of every account\'s queue (after scheduledAt if given), "draft" saves it unpublished',
  );

export const McpOverrides = z
  .record(
    AccountId,
    z
      .object({
        message: McpMessage.optional().describe("This account's text instead of the base message"),
        media: McpMediaList.optional().describe(
          "This account's media instead of the base media ([] for none)",
        ),
      })
      .describe("One account's version of the post"),
  )
  .describe(
    'Per-account versions keyed by account id (each must be one of accountIds), e.g. a shorter text for one account. Fields left out fall back to the base post.',
  );

export const McpThread = z
  .array(
    z
      .object({ message: McpMessage, media: McpMediaList.optional() })
      .describe('One post of the thread after the first message'),
  )
  .max(25)
  .describe(
    'Up to 25 more posts after the first message, published as a reply chain on every account (only platforms with threads: get_platform_rules features.thread). If a part fails, the earlier ones stay and publish_post continues from the failed part.',
  );

/** Limits are checked by the operation (a 422 naming e.g. `recycle.intervalDays`). */
export const McpRecycle = z
  .object({
    intervalDays: z.number().int().describe('Days between postings, 7 to 365'),
    maxTimes: z.number().int().describe('How many copies at most, 1 to 52'),
    until: z.string().max(100).optional().describe('No copy after this ISO 8601 date-time (future)'),
    jitterMinutes: z.number().int().optional().describe('Random shift of each copy, 0 to 240 minutes'),
  })
  .nullable()
  .optional()
  .describe(
    'Evergreen recycling: after the post posts, a copy is scheduled intervalDays later (± jitter), until maxTimes or until; null turns it off and removes copies not yet published',
  );
