import { AccountId } from '@postwave/shared';
import { z } from 'zod';
import { snippetKinds } from '#server/db/schema.ts';

/*
 * Snippets (docs/library.md#snippets): signatures, hashtag groups and text the composer inserts.
 * The API stores and lists them; it never adds their text to a post by itself.
 */

const Name = z.string().trim().min(1).max(200);
// Stored as written (a signature may start with a blank line), but never blank: a body of only
// spaces or line breaks would insert nothing, like an empty one.
const Body = z
  .string()
  .min(1)
  .max(10_000)
  .regex(/\S/, 'Write the text to insert: a snippet of only spaces inserts nothing');
const Kind = z.enum(snippetKinds).meta({
  description:
    '`signature`: may be an account’s default, which the composer inserts when the account is picked; `hashtags`: a hashtag group; `text`: any text.',
});
const DefaultFor = z.array(AccountId).max(100).meta({
  description:
    'Accounts (the workspace’s; 422 `account_not_found`) that start with this signature in the composer. Signatures only (422 `default_needs_signature`). An account has one default signature: naming it here moves it from the signature that had it.',
});

export const Snippet = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(snippetKinds),
    body: z.string(),
    defaultFor: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Snippet' });
export type SnippetView = z.infer<typeof Snippet>;

export const SnippetList = z.object({ snippets: z.array(Snippet) }).meta({ id: 'SnippetList' });

export const CreateSnippetRequest = z
  .object({ name: Name, kind: Kind, body: Body, defaultFor: DefaultFor.default([]) })
  .meta({ id: 'CreateSnippetRequest' });
export type CreateSnippetInput = z.infer<typeof CreateSnippetRequest>;

export const UpdateSnippetRequest = z
  .object({
    name: Name.optional(),
    kind: Kind.optional(),
    body: Body.optional(),
    defaultFor: DefaultFor.optional().meta({ description: 'Replaces the list (`[]` clears it).' }),
  })
  .meta({
    id: 'UpdateSnippetRequest',
    description: 'Each field given replaces the stored one. Posts that used the snippet do not change.',
  });
export type UpdateSnippetInput = z.infer<typeof UpdateSnippetRequest>;
