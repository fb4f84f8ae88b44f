import { ProblemError } from '@postwave/shared';

/** A top-level browser navigation (a link or the address bar), which should get a page, not JSON. */
export function wantsHtml(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html');
}

/** The `not_supported` problem a feature this deployment has not configured answers with. */
export function isNotConfigured(error: unknown): boolean {
  return error instanceof ProblemError && error.problem.code === 'not_supported';
}
