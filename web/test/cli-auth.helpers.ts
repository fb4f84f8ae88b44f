import type { Client } from './helpers/client.ts';

/** Hidden inputs of the first form on a page, entities decoded, as a browser would submit them. */
export function hiddenInputs(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(match[0])?.[1];
    const value = /value="([^"]*)"/.exec(match[0])?.[1] ?? '';
    if (name) fields[decode(name)] = decode(value);
  }
  return fields;
}

export function formAction(html: string): string {
  return decode(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? '');
}

function decode(s: string): string {
  return s
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/**
 * Plays the browser on an approval page: follows `url` with the session cookie to the page,
 * submits its form with `decision`, and returns where the app sends the browser.
 */
export async function decide(
  browser: Client,
  url: string,
  decision: 'approve' | 'deny',
): Promise<{ page: string; location: string }> {
  let path = url.startsWith('http') ? url.slice(browser.base.length) : url;
  let response = await browser.fetch(path);
  for (let hops = 0; response.status >= 300 && response.status < 400 && hops < 5; hops++) {
    const location = response.headers.get('location')!;
    path = location.startsWith('http') ? location.slice(browser.base.length) : location;
    response = await browser.fetch(path);
  }
  if (response.status !== 200) throw new Error(`approval page: ${response.status} ${await response.text()}`);
  const page = await response.text();
  const submitted = await browser.fetch(formAction(page), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hiddenInputs(page), decision }),
  });
  if (submitted.status !== 303) throw new Error(`decision: ${submitted.status} ${await submitted.text()}`);
  return { page, location: submitted.headers.get('location')! };
}
