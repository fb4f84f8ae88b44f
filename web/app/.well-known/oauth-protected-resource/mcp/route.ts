import { getConfig } from '#server/context.ts';
import { jsonWithCors, preflight, protectedResourceMetadata } from '#server/oauth/metadata.ts';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  return jsonWithCors(protectedResourceMetadata(getConfig().appUrl), 200, {
    'cache-control': 'public, max-age=3600',
  });
}

export const OPTIONS = preflight;
