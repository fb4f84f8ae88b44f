const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** An error we must show the user instead of redirecting (unknown client, unregistered redirect URI). */
export function errorPage(message: string, status = 400): Response {
  const html =
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Authorization error</title>' +
    '<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:15vh auto;line-height:1.5">' +
    `<h1>This authorization request cannot continue</h1><p role="alert">${escapeHtml(message)}</p>` +
    '<p>Go back to the application and connect again.</p></body></html>';
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}
