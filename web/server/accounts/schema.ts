import { PublicAccount } from '@postwave/shared';
import { z } from 'zod';

/** A connected account as the Scheduler answers it: the SDK's public account plus its state. */
export const ConnectedAccount = PublicAccount.extend({
  /** `needs_reconnect` once the platform refused the stored credentials for good. */
  status: z.enum(['active', 'needs_reconnect']),
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
