import { ProblemError } from '@postwave/shared';
import type { SchedulerConfig } from '#server/config.ts';

/** A top-level browser navigation (a link or the address bar), which should get a page, not JSON. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html');
}

/** The `not_supported` problem a feature this deployment has not configured answers with. */
export function isNotConfigured(error: unknown): boolean {
  return error instanceof ProblemError && error.problem.code === 'not_supported';
}

/**
 * The setup page naming the settings that turn on a sign-in provider or platform (`id`), for a
 * person who followed a link to one this server is not configured for.
 */
export function setupPageRedirect(config: Pick<SchedulerConfig, 'appUrl'>, id: string): Response {
  const missing = encodeURIComponent(id);
  return new Response(null, {
    status: 303,
    headers: {
      location: `${config.appUrl}/setup?missing=${missing}#${missing}`,
      'cache-control': 'no-store',
    },
  });
}
