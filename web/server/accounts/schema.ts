import { PublicAccount } from '@postwave/shared';
import { z } from 'zod';
import { accountHealthStates } from '#server/db/schema.ts';

/** What the last check of the connection found (docs/operations.md#account-health). */
export const AccountHealth = z.enum(accountHealthStates).meta({
  id: 'AccountHealth',
  description:
    '`ok`: the platform accepted the credentials at the last check. `expiring`: they work but expire soon and ' +
    'could not be renewed (reconnect before then). `needs_reconnect`: the platform refused them; reconnect the ' +
    'account, its scheduled posts will fail until then. `unreachable`: the platform could not be reached at the ' +
    'last check (network error, outage); checked again at the next interval.',
});

/** A connected account as the Scheduler answers it: the SDK's public account plus its state. */
export const ConnectedAccount = PublicAccount.extend({
  /** `needs_reconnect` once the platform refused the stored credentials for good. */
  status: z.enum(['active', 'needs_reconnect']),
  health: AccountHealth,
  /** Why, in a sentence for the user; absent when `ok`. */
  healthReason: z.string().optional(),
  healthHint: z.string().optional().meta({
    description:
      'What the person can do, in one sentence (reconnect, or wait for the next check); absent when `ok` and the account is active.',
  }),
  /** When the connection was last checked (ISO 8601); null before its first check. */
  healthCheckedAt: z.string().nullable(),
  createdAt: z.string(),
}).meta({ id: 'ConnectedAccount', description: 'A connected account. Credentials are never returned.' });
export type AccountView = z.infer<typeof ConnectedAccount>;

export const AccountList = z.object({ accounts: z.array(ConnectedAccount) });

export const ConnectAccountRequest = z.object({
  platform: z.string().min(1).max(50),
  platformAccountId: z.string().min(1).max(300).optional(),
  credentials: z.record(z.string(), z.unknown()),
  label: z.string().max(200).optional(),
});

export const RenameAccountRequest = z.object({ label: z.string().trim().max(200).nullable() });

/** The picker's answer as JSON (the page itself posts the same fields as a form). */
export const PickAccountsRequest = z
  .object({
    pending: z.string().min(1).max(200),
    accountIds: z.array(z.string().min(1).max(500)).max(500),
  })
  .meta({ id: 'PickAccountsRequest' });

/** `GET /api/v1/accounts/{id}/options/{field}`: one option's choices as the platform offers them now. */
export const OptionChoiceList = z
  .object({
    choices: z
      .array(
        z.object({
          value: z.string().meta({ description: 'What `accountOptions[id][field]` takes.' }),
          label: z.string().meta({ description: 'What the user sees (the board or flair name).' }),
        }),
      )
      .meta({ description: 'In the platform’s order; at most 1000.' }),
  })
  .meta({ id: 'OptionChoiceList' });
