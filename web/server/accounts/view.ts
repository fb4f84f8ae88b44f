import { accountHealthHints } from '@postwave/shared/error-hints';
import type { AccountRow } from './repository.ts';
import type { AccountView } from './schema.ts';

export function toView(row: AccountRow): AccountView {
  // A refused publish sets the status before any check does: the hint follows whichever says more.
  const attention = row.status === 'needs_reconnect' ? 'needs_reconnect' : row.health;
  return {
    id: row.id,
    platform: row.platform,
    platformAccountId: row.platformAccountId,
    ...(row.label ? { label: row.label } : {}),
    ...(row.username ? { username: row.username } : {}),
    ...(row.profilePicture ? { profilePicture: row.profilePicture } : {}),
    status: row.status,
    health: row.health,
    ...(row.health !== 'ok' && row.healthReason ? { healthReason: row.healthReason } : {}),
    ...(attention !== 'ok' ? { healthHint: accountHealthHints[attention] } : {}),
    healthCheckedAt: row.healthCheckedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
