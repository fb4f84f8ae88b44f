import { z } from 'zod';

export const TargetError = z
  .object({
    code: z.string(),
    message: z
      .string()
      .meta({ description: "What happened, in the platform's own words where it gave any." }),
    retryable: z.boolean(),
    platformStatus: z
      .number()
      .int()
      .optional()
      .meta({ description: "The platform's HTTP status, when it answered." }),
    hint: z.string().optional().meta({
      description:
        'One sentence in plain words on what the person can do (reconnect, shorten, pick another file, wait). Present on every error in answers; keyed by `code` (see docs/operations.md#errors-in-plain-words).',
    }),
  })
  .meta({ id: 'TargetError' });

export const RelayOutcome = z
  .object({
    url: z.string(),
    status: z.enum(['accepted', 'refused', 'timeout', 'unreachable']),
    message: z.string().optional(),
  })
  .meta({
    id: 'RelayOutcome',
    description:
      "One Nostr relay's answer to the note: `accepted` (`OK true`, a duplicate included), `refused` (`OK false`, with the relay's reason in `message`, e.g. `blocked: …`), `timeout` (no answer in time) or `unreachable` (no connection, or the address is not allowed).",
  });
export type RelayOutcome = z.infer<typeof RelayOutcome>;

export const TargetDetails = z
  .object({
    relays: z.array(RelayOutcome).optional().meta({
      description: 'Nostr: every relay the note was sent to, in order, with its answer.',
    }),
  })
  .meta({
    id: 'TargetDetails',
    description:
      'What the platform reported beyond the post id and URL, where it has more to say (Nostr: each relay’s answer). Absent for most platforms.',
  });
export type TargetDetails = z.infer<typeof TargetDetails>;

export const partStatuses = ['posted', 'failed', 'pending', 'unknown'] as const;

export const TargetPart = z
  .object({
    index: z.number().int().nonnegative(),
    status: z.enum(partStatuses),
    platformPostId: z.string().optional(),
    url: z.string().optional(),
    error: TargetError.optional(),
    details: TargetDetails.optional(),
  })
  .meta({
    id: 'TargetPart',
    description:
      'One post of a thread on one account: `index` 0 is the first message, 1 the first `thread` part, and so on. `posted`; `failed` (with `error`); `pending`: not sent because an earlier part failed (a retry sends it); `unknown` (Scheduler): the send was interrupted on a platform where it cannot be checked.',
  });
export type TargetPart = z.infer<typeof TargetPart>;

export const FirstCommentResult = z
  .object({
    status: z.enum(partStatuses),
    platformPostId: z.string().optional(),
    url: z.string().optional(),
    error: TargetError.optional(),
  })
  .meta({
    id: 'FirstCommentResult',
    description:
      "The outcome of `accountOptions[id].firstComment`. When the post went out but the comment failed, the target's status is `failed` (the error says so) and a retry posts only the comment.",
  });
export type FirstCommentResult = z.infer<typeof FirstCommentResult>;

export const ValidationIssue = z
  .object({ code: z.string(), message: z.string(), path: z.string().optional() })
  .meta({ id: 'ValidationIssue' });
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export const TargetLink = z
  .object({
    url: z.string().meta({ description: 'The link as written in the post.' }),
    longUrl: z.string().meta({ description: 'With the workspace’s UTM parameters appended.' }),
    shortUrl: z.string().optional().meta({
      description: 'The short link posted instead, made for this account alone (absent when not shortened).',
    }),
    clicks: z.number().int().optional().meta({
      description: 'Clicks the shortener last reported for this short link (analytics collection).',
    }),
  })
  .meta({
    id: 'TargetLink',
    description: 'A link of the post as tracked for one account (docs/links.md).',
  });
export type TargetLink = z.infer<typeof TargetLink>;

export const TargetResult = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    status: z.enum(['posted', 'failed']),
    platformPostId: z.string().optional(),
    url: z.string().optional(),
    error: TargetError.optional(),
    details: TargetDetails.optional().meta({
      description: "The first message's platform details (Nostr: per-relay answers); see `TargetDetails`.",
    }),
    parts: z.array(TargetPart).optional().meta({
      description:
        "Present when the post has a `thread`: every part's outcome in order. `status` is `posted` only when every part (and the first comment) is; `platformPostId` and `url` are the first message's.",
    }),
    firstComment: FirstCommentResult.optional(),
    warnings: z.array(ValidationIssue).optional().meta({
      description:
        'What did not go as asked but did not stop the post, e.g. `link_not_shortened` (the shortener failed; the long link was posted) or `links_not_tracked`.',
    }),
    links: z.array(TargetLink).optional().meta({
      description: 'The links of the text as tracked for this account, when the workspace tracks links.',
    }),
  })
  .meta({ id: 'TargetResult', description: 'The outcome of publishing to one account.' });
export type TargetResult = z.infer<typeof TargetResult>;

/**
 * A target's result as the Scheduler stores it: `unknown` when a send was cut off (a crash) on a
 * platform that can neither dedupe a resend nor find the earlier post; a person decides.
 */
export const StoredTargetResult = TargetResult.extend({
  status: z.enum(['posted', 'failed', 'unknown']),
}).meta({
  id: 'StoredTargetResult',
  description:
    'The outcome of publishing to one account. `unknown`: the send was interrupted (the server stopped mid-publish) on a platform where it cannot be checked or safely repeated; it may or may not have been posted. Resolve it with `POST /api/v1/posts/{id}` `{ "resolveUnknown": "mark_posted" | "post_again" }`.',
});
export type StoredTargetResult = z.infer<typeof StoredTargetResult>;

export const PublishResponse = z
  .object({ status: z.enum(['posted', 'partial']), results: z.array(TargetResult) })
  .meta({ id: 'PublishResponse' });
export type PublishResponse = z.infer<typeof PublishResponse>;

export const AccountValidation = z
  .object({
    accountId: z.string(),
    platform: z.string(),
    valid: z.boolean(),
    errors: z.array(ValidationIssue),
    warnings: z.array(ValidationIssue),
  })
  .meta({ id: 'AccountValidation' });
export type AccountValidation = z.infer<typeof AccountValidation>;

export const ValidationResponse = z
  .object({
    valid: z.boolean(),
    results: z.array(AccountValidation),
    errors: z.array(ValidationIssue).optional().meta({
      description:
        'Present when the request itself breaks a rule, whatever the accounts (e.g. `accountIds` empty or over 100, a text over 100,000 characters, more than 50 media, a malformed media key, an override for an account not in `accountIds`: `override_unknown_account`): each issue names its field in `path`. `valid` is then false and `results` is empty, as accounts are checked only once the request keeps these rules.',
    }),
  })
  .meta({
    id: 'ValidationResponse',
    description:
      'Whether the post could be published, with each account’s errors and warnings in `results` and errors of the request as a whole in `errors`.',
  });
export type ValidationResponse = z.infer<typeof ValidationResponse>;
