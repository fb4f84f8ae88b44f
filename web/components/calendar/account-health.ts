/**
 * Whether an account needs attention before its posts can go out. Reads `health` (`ok` |
 * `expiring` | `needs_reconnect` | `unreachable`, docs/operations.md#account-health) when the
 * account carries it, and the older `status: "needs_reconnect"` otherwise.
 */
export function accountTrouble(account: { status?: string; health?: string }): string | undefined {
  const health = account.health;
  if (health === 'needs_reconnect' || account.status === 'needs_reconnect') return 'needs reconnecting';
  if (health === 'unreachable') return 'is unreachable';
  return undefined;
}
