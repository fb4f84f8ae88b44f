import { z } from 'zod';
import { firstCommentOption } from '../first-comment.ts';
import { relayUrlProblem } from './relay-url.ts';

export const maxRelays = 20;

const relayUrl = z.string().superRefine((value, ctx) => {
  const problem = relayUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `relay "${value.slice(0, 200)}" ${problem}` });
});

/** Per-post (or per-account, in the accounts file) Nostr options. */
export const nostrOptionsSchema = z
  .strictObject({
    relays: z
      .array(relayUrl)
      .min(1, 'name at least one relay, or leave relays out to use NOSTR_RELAYS')
      .max(maxRelays)
      .optional()
      .meta({
        description: `Relays (\`wss://\` or \`ws://\` URLs, up to ${maxRelays}) that replace \`NOSTR_RELAYS\` for this account. Relays a request names are user-chosen hosts (on the Scheduler also an account's): private addresses are refused unless the server's \`ALLOW_PRIVATE_HOSTS\` lists them; the self-hosted accounts file's relays are the operator's and trusted.`,
      }),
    firstComment: firstCommentOption(),
  })
  .meta({ id: 'NostrOptions' });
export type NostrOptions = z.infer<typeof nostrOptionsSchema>;

const nsec = /^nsec1[02-9ac-hj-np-z]{58}$/;
const hexKey = /^[0-9a-f]{64}$/i;

export const nostrCredentialsSchema = z
  .object({
    secretKey: z
      .string()
      .trim()
      .refine((value) => nsec.test(value) || hexKey.test(value), {
        message: 'must be an nsec1… key or 64 hexadecimal characters',
      })
      .meta({
        description:
          "The account's private key, as `nsec1…` (NIP-19) or 64 hex characters. It signs every note; it is stored encrypted and never logged or returned.",
      }),
  })
  .meta({ id: 'NostrCredentials' });
export type NostrCredentials = z.infer<typeof nostrCredentialsSchema>;
