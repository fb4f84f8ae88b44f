import type { NextRequest } from 'next/server';
import { handlers } from '#server/auth/next-auth.ts';
import { getConfig } from '#server/context.ts';
import { setupPageRedirect } from '#server/http/browser.ts';
import { unconfiguredProviders } from '#server/users/providers.ts';

export const runtime = 'nodejs';

/**
 * A sign-in or callback URL of a provider this server has no credentials for (an old bookmark,
 * a link from another deployment) goes to the setup page that names the settings, instead of
 * next-auth's error document.
 */
function unconfiguredProviderRedirect(request: NextRequest): Response | undefined {
  const match = /^\/api\/auth\/(?:signin|callback)\/([^/]+)$/.exec(request.nextUrl.pathname);
  if (!match) return undefined;
  const config = getConfig();
  const provider = unconfiguredProviders(config).find((p) => p.id === match[1]);
  if (!provider) return undefined;
  return setupPageRedirect(config, provider.id);
}

export const GET = (request: NextRequest) => unconfiguredProviderRedirect(request) ?? handlers.GET(request);
export const POST = (request: NextRequest) => unconfiguredProviderRedirect(request) ?? handlers.POST(request);
