import { PlatformError } from '../../errors.ts';
import { createGoogleConnector, type GoogleClientConfig } from '../google-connector.ts';
import type { OAuthConnector } from '../oauth-connector.ts';
import type { AnyPublisher } from '../types.ts';
import type { YouTubeConfig } from './config.ts';

/** Upload, read the channel, and (youtube.force-ssl) `commentThreads.insert` for the first comment. */
export const youTubeScopes = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.force-ssl',
];

/**
 * "Connect YouTube": Google OAuth with PKCE and offline access. The channel comes from the
 * publisher's own lookup, so the stored credentials are exactly what publishing needs.
 */
export function createYouTubeConnector(
  config: YouTubeConfig,
  client: GoogleClientConfig,
  publisher: AnyPublisher,
): OAuthConnector {
  return createGoogleConnector({
    platform: 'youtube',
    scopes: youTubeScopes,
    tokenUrl: config.tokenUrl,
    client,
    async listAccounts(credentials, { signal, onRefreshed }) {
      const profile = await publisher.verifyCredentials(
        { id: 'connecting', platform: 'youtube', platformAccountId: '', credentials: { ...credentials } },
        { signal, onCredentialsRefreshed: onRefreshed },
      );
      if (!profile.platformAccountId)
        throw new PlatformError('target_unreachable', 'This Google account has no YouTube channel');
      return [{ platformAccountId: profile.platformAccountId, profile, kind: 'Channel' }];
    },
  });
}
