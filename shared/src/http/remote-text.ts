/**
 * A platform's own error text, made safe to show: strings only, control characters removed,
 * at most `max` characters. Used for publish results, where the platform's words help the user;
 * never for account connection, where the host may not be the platform at all.
 */
export function remoteText(value: unknown, max = 300): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  if (!clean) return undefined;
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
