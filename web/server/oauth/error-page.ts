import { errorPage } from '#server/http/error-page.ts';

/** An authorization request we must not send back to its client (unknown client, unregistered redirect URI, ...). */
export function authorizeErrorPage(message: string): Response {
  return errorPage({
    title: 'This authorization request cannot continue',
    message,
    next: 'Go back to the application and connect again.',
  });
}
