import { PlatformError } from '../../errors.ts';
import { createGoogleConnector, type GoogleClientConfig } from '../google-connector.ts';
import { GoogleAccessToken } from '../google-oauth.ts';
import type { ConnectableAccount, OAuthConnector } from '../oauth-connector.ts';
import { googleBusinessCall } from './client.ts';
import type { GoogleBusinessConfig } from './config.ts';

export const googleBusinessScopes = ['https://www.googleapis.com/auth/business.manage'];

interface Account {
  name?: string;
  accountName?: string;
  type?: string;
}
interface Location {
  name?: string;
  title?: string;
  /** v4's name for `title`. */
  locationName?: string;
  storefrontAddress?: { addressLines?: string[]; locality?: string };
}

/** Pages read at most per list (20 accounts, 100 locations each). */
const maxPages = 20;

/**
 * "Connect with Google" for Business Profile: Google OAuth with PKCE and offline access (the
 * same Google client as YouTube). The picker offers every location of every business account the
 * login manages; they share one grant (`grantKey`: the login's personal account), so a refreshed
 * token serves all of them and a revoked one marks all of them `needs_reconnect`.
 */
export function createGoogleBusinessConnector(
  config: GoogleBusinessConfig,
  client: GoogleClientConfig,
): OAuthConnector {
  return createGoogleConnector({
    platform: 'google_business',
    scopes: googleBusinessScopes,
    tokenUrl: config.tokenUrl,
    client,
    async listAccounts(credentials, { signal, onRefreshed }) {
      const token = new GoogleAccessToken({ tokenUrl: config.tokenUrl, credentials, signal, onRefreshed });
      // The v1 APIs replaced v4's account and location lists; a v4-only service answers 404 to v1.
      const accounts = await pages<Account>(
        token,
        `${config.accountsUrl}/v1/accounts`,
        'accounts',
        signal,
        20,
      ).catch((error: unknown) => {
        if (!notServed(error)) throw error;
        return pages<Account>(token, `${config.apiUrl}/v4/accounts`, 'accounts', signal, 20);
      });
      const grantKey = (accounts.find((a) => a.type === 'PERSONAL') ?? accounts[0])?.name;
      const found: Omit<ConnectableAccount, 'credentials'>[] = [];
      const seen = new Set<string>();
      for (const account of accounts) {
        if (!account.name) continue;
        const url = new URL(`${config.informationUrl}/v1/${account.name}/locations`);
        url.searchParams.set('readMask', 'name,title,storefrontAddress');
        const locations = await pages<Location>(token, url.toString(), 'locations', signal, 100).catch(
          (error: unknown) => {
            if (!notServed(error)) throw error;
            return pages<Location>(
              token,
              `${config.apiUrl}/v4/${account.name}/locations`,
              'locations',
              signal,
              100,
            );
          },
        );
        for (const location of locations) {
          const locationId = location.name?.replace(/^.*locations\//, '');
          if (!locationId || seen.has(locationId)) continue;
          seen.add(locationId);
          const platformAccountId = `${account.name}/locations/${locationId}`;
          const address = [
            location.storefrontAddress?.addressLines?.[0],
            location.storefrontAddress?.locality,
          ]
            .filter(Boolean)
            .join(', ');
          found.push({
            platformAccountId,
            profile: {
              name: location.title || location.locationName || platformAccountId,
              ...(address
                ? { username: address }
                : account.accountName
                  ? { username: account.accountName }
                  : {}),
              platformAccountId,
            },
            kind: 'Location',
            ...(grantKey ? { grantKey } : {}),
          });
        }
      }
      if (found.length === 0)
        throw new PlatformError(
          'target_unreachable',
          'This Google account manages no Business Profile location',
        );
      return found;
    },
  });
}

/** A 404 or 405: the host does not serve this version of the call. */
function notServed(error: unknown): boolean {
  return error instanceof PlatformError && (error.status === 404 || error.status === 405);
}

async function pages<T>(
  token: GoogleAccessToken,
  url: string,
  key: 'accounts' | 'locations',
  signal: AbortSignal,
  pageSize: number,
): Promise<T[]> {
  const items: T[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const next = new URL(url);
    next.searchParams.set('pageSize', String(pageSize));
    if (pageToken) next.searchParams.set('pageToken', pageToken);
    const answer = await googleBusinessCall<Record<string, unknown>>(
      token,
      next,
      { signal },
      `the list of ${key}`,
    );
    items.push(...(((answer?.[key] as T[] | undefined) ?? []) as T[]));
    pageToken =
      typeof answer?.nextPageToken === 'string' && answer.nextPageToken ? answer.nextPageToken : undefined;
    if (!pageToken) break;
  }
  return items;
}
