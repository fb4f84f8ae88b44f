import { AccountId } from '@postwave/shared';
import { z } from 'zod';
import { feedModes } from '#server/db/schema.ts';

export const defaultTemplate = '{{title}}\n\n{{link}}';

const FeedUrl = z
  .string()
  .max(2000)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL');

const Template = z.string().min(1).max(10_000).meta({
  description:
    'The post text: `{{title}}`, `{{link}}` and `{{summary}}` (plain text, at most 500 characters) are replaced.',
});

export const FeedRequest = z
  .object({
    url: FeedUrl.meta({
      description: 'An RSS, Atom, RDF or JSON Feed URL (fetched through the SSRF-safe fetch).',
    }),
    name: z.string().max(200).optional(),
    accountIds: z
      .array(AccountId)
      .min(1)
      .max(100)
      .meta({ description: 'The accounts each new item is posted to.' }),
    template: Template.default(defaultTemplate),
    mode: z.enum(feedModes).default('draft').meta({
      description:
        '`draft`: each new item becomes a draft to review. `now`: it is published at once: stored as a post scheduled for now, in the same transaction that marks the item seen, and published by the dispatcher (so a crash neither loses nor doubles it). `queue`: it takes the next free slot common to the accounts’ queues (as `postingMode: "queue"`). In `now` and `queue` an item that fails validation, or finds no queue slot, becomes a draft instead and the reason shows in `lastError`.',
    }),
    intervalMinutes: z.number().int().min(5).max(1440).default(30),
    enabled: z.boolean().default(true),
  })
  .meta({ id: 'FeedRequest' });
export type FeedRequest = z.infer<typeof FeedRequest>;

export const FeedPatch = z
  .object({
    url: FeedUrl.optional(),
    name: z.string().max(200).nullable().optional(),
    accountIds: z.array(AccountId).min(1).max(100).optional(),
    template: Template.optional(),
    mode: z.enum(feedModes).optional(),
    intervalMinutes: z.number().int().min(5).max(1440).optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'FeedPatch' });
export type FeedPatch = z.infer<typeof FeedPatch>;

export const Feed = z
  .object({
    id: z.string(),
    url: z.string(),
    name: z.string().nullable(),
    accountIds: z.array(z.string()),
    template: z.string(),
    mode: z.enum(feedModes),
    intervalMinutes: z.number().int(),
    enabled: z.boolean(),
    lastPolledAt: z.string().nullable(),
    lastStatus: z.string().nullable().meta({
      description:
        '`primed` (first poll: items seen, none posted), `updated`, `not_modified` (304), `failed`.',
    }),
    lastError: z.string().nullable(),
    nextPollAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Feed' });
export type FeedView = z.infer<typeof Feed>;

export const FeedList = z.object({ feeds: z.array(Feed) }).meta({ id: 'FeedList' });

export const FeedPollResult = z
  .object({
    status: z.enum(['primed', 'updated', 'not_modified', 'failed', 'busy']).meta({
      description: '`busy`: another instance is polling this feed right now.',
    }),
    newItems: z.number().int(),
    postIds: z.array(z.string()),
    error: z.string().optional(),
    feed: Feed,
  })
  .meta({ id: 'FeedPollResult' });
export type FeedPollResult = z.infer<typeof FeedPollResult>;
