const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The app's card (globals.css' auth-card and tokens, light and dark), inline: this page loads nothing. */
const style = `
:root{color-scheme:light dark;--bg:#f6f7fb;--surface:#fff;--border:#e2e5ee;--border-strong:#cbd0dc;--text:#141824;--text-2:#4b5365;--accent:#4f46e5}
@media (prefers-color-scheme:dark){:root{--bg:#0e1117;--surface:#161a23;--border:#2a3041;--border-strong:#3a4257;--text:#e9ecf3;--text-2:#b3bacb;--accent:#8b85ff}}
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;background:var(--bg);color:var(--text)}
main{min-height:100vh;display:grid;place-items:center;padding:32px 16px}
.card{width:100%;max-width:420px;background:var(--surface);border:1px solid var(--border);border-radius:14px;padding:32px;display:flex;flex-direction:column;gap:16px}
.brand{margin:0;font-weight:700;color:var(--accent)}
h1{margin:0 0 6px;font-size:1.35rem;line-height:1.3}
p{margin:0}
.muted{color:var(--text-2)}
a.btn{display:flex;align-items:center;justify-content:center;min-height:38px;padding:0 16px;border-radius:6px;border:1px solid var(--border-strong);color:var(--text);font-weight:550;text-decoration:none}
a.btn:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
`;

/**
 * Its policy: its own inline style and nothing else. The proxy gives it to the routes that answer
 * this page (`errorPagePaths`), whose answers would otherwise get the API policy, under which the
 * style does not apply.
 */
export const errorPagePolicy =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The routes that answer a browser this page. */
export const errorPagePaths: ReadonlySet<string> = new Set([
  '/api/oauth/authorize',
  '/api/oauth/authorize/decision',
  '/api/cli/authorize',
]);

export interface ErrorPage {
  /** What cannot happen, as the page's heading. */
  title: string;
  /** Why, in words the person can act on. */
  message: string;
  /** What to do next. */
  next: string;
  /** 400 for a request whose parameters cannot be used; 404 for something that does not exist. */
  status?: number;
}

/**
 * A standalone HTML error card, answered with a real error status, for a person who followed a
 * link we must not redirect (an OAuth client or redirect URI we cannot trust, a broken CLI sign-in
 * link). A Next page cannot choose its status, so the routes that check those links answer this,
 * and their pages send a request that does not pass the same check back to them.
 */
export function errorPage({ title, message, next, status = 400 }: ErrorPage): Response {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)} · Postwave</title><style>${style}</style></head>` +
    '<body><main><div class="card"><p class="brand">Postwave</p>' +
    `<div role="alert"><h1>${escapeHtml(title)}</h1><p class="muted">${escapeHtml(message)}</p></div>` +
    `<p>${escapeHtml(next)}</p><a class="btn" href="/compose">Go to Postwave</a></div></main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': errorPagePolicy,
    },
  });
}
