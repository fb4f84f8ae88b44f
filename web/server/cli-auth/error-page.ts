import { errorPage } from '#server/http/error-page.ts';

/** A `postwave login` link whose parameters cannot be used (they are checked before sign-in). */
export function cliLinkErrorPage(message: string): Response {
  return errorPage({
    title: 'This CLI sign-in link is not valid',
    message: `${message}.`,
    next: 'Run postwave login again.',
  });
}
