import { getConfig } from '#server/context.ts';
import { authorizationServerMetadata, jsonWithCors, preflight } from '#server/oauth/metadata.ts';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  return jsonWithCors(authorizationServerMetadata(getConfig().appUrl), 200, {
    'cache-control': 'public, max-age=3600',
  });
}

export const OPTIONS = preflight;
