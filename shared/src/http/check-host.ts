import { PlatformError } from '../errors.ts';
import type { FetchLike } from './fetch-like.ts';
import { addressPolicyOf, checkUrl, UnsafeUrlError } from './safe-fetch.ts';

/**
 * Checks a user-chosen URL against the address policy of the fetch it will be sent with, without
 * sending anything: for credentials that cannot be tried without posting (a chat webhook URL).
 * No fetch (hosts the operator chose, the self-hosted accounts file): every URL passes. A refused
 * host is a permanent `target_unreachable` carrying the policy's reason; an unknown host a
 * retryable `network_error`, whose message says nothing about the network.
 */
export async function checkUserHost(fetch: FetchLike | undefined, url: string | URL): Promise<void> {
  const policy = addressPolicyOf(fetch);
  if (!policy) return;
  try {
    await checkUrl(url, policy);
  } catch (error) {
    if (!(error instanceof UnsafeUrlError)) throw error;
    if (error.code === 'host_not_found' || error.code === 'fetch_failed') {
      throw new PlatformError('network_error', 'The host could not be reached', { cause: error });
    }
    throw new PlatformError('target_unreachable', error.message, { cause: error, retryable: false });
  }
}
