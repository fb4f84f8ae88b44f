import type { CredentialField, CredentialsConnect } from '@postwave/shared/platforms/manifest';

/** The `POST /api/v1/accounts` body a credentials connect form sends, built from its manifest fields. */
export interface ConnectBody {
  platform: string;
  platformAccountId?: string;
  credentials: Record<string, string>;
}

function normalise(field: CredentialField, raw: string): string {
  const value = raw.trim();
  if (field.transform === 'strip-at') return value.replace(/^@/, '');
  if (field.transform === 'https-url' && value && !/^https?:\/\//i.test(value)) return `https://${value}`;
  return value;
}

export function connectBody(
  platform: string,
  connect: CredentialsConnect,
  values: Record<string, string>,
): ConnectBody {
  const body: ConnectBody = { platform, credentials: {} };
  for (const field of connect.fields) {
    const value = normalise(field, values[field.name] ?? '');
    if (value === '') continue;
    if (field.target === 'platformAccountId') body.platformAccountId = value;
    else body.credentials[field.name] = value;
  }
  return body;
}

/** The form field an API issue path (`credentials.botToken`, `platformAccountId`) points at. */
export function fieldForIssue(
  connect: CredentialsConnect,
  path: string | undefined,
): CredentialField | undefined {
  if (!path) return undefined;
  if (path === 'platformAccountId') return connect.fields.find((f) => f.target === 'platformAccountId');
  const name = path.replace(/^credentials\./, '');
  return connect.fields.find((f) => f.name === name && f.target !== 'platformAccountId');
}

/** Values to start a reconnect form with: the account id field keeps pointing at the same account. */
export function reconnectValues(
  connect: CredentialsConnect,
  platformAccountId: string,
): Record<string, string> {
  const field = connect.fields.find((f) => f.target === 'platformAccountId');
  return field ? { [field.name]: platformAccountId } : {};
}
