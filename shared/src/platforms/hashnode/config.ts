import { envBaseUrl } from '../env.ts';
import type { Env } from '../types.ts';

export const defaultHashnodeApiUrl = 'https://gql.hashnode.com';

export interface HashnodeConfig {
  /** Hashnode's GraphQL endpoint (`https://gql.hashnode.com`); every call is a POST to it. */
  apiUrl: string;
}

/** Reads HASHNODE_API_URL; throws at start on a malformed value. */
export function hashnodeConfigFromEnv(env: Env): HashnodeConfig {
  return { apiUrl: envBaseUrl(env, 'HASHNODE_API_URL', defaultHashnodeApiUrl) };
}
