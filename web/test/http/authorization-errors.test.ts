import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type RunningApp, startApp } from '../helpers/app.ts';
import { type Client, signUp } from '../helpers/client.ts';
import { backends } from '../helpers/databases.ts';

/**
 * The MCP consent page and the CLI approval page refuse a request they cannot use with a 400 and
 * a readable error card (never a 200, never the consent form), whether it reaches them directly
 * or through the authorize routes, signed in or not. A browser gets the card; the CLI route still
 * answers a problem to anything that does not ask for HTML.
 */
const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const page = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** A browser's navigation: follows redirects (with the session's cookies) to the final answer. */
async function navigate(
  app: string,
  path: string,
  who?: Client,
): Promise<{ response: Response; html: string }> {
  const headers: Record<string, string> = { ...page };
  if (who?.cookies.size) headers.cookie = [...who.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const response = await fetch(app + path, { headers });
  return { response, html: await response.text() };
}

function assertErrorCard(
  answer: { response: Response; html: string },
  name: string,
  title: RegExp,
  message: RegExp,
): void {
  assert.equal(answer.response.status, 400, name);
  assert.match(answer.response.headers.get('content-type') ?? '', /text\/html/, name);
  const policy = answer.response.headers.get('content-security-policy') ?? '';
  assert.match(policy, /frame-ancestors 'none'/, name);
  assert.match(policy, /style-src 'unsafe-inline'/, `${name}: the card's own style applies`);
  assert.match(answer.html, /<html lang="en">/, name);
  assert.match(answer.html, /<main>/, name);
  assert.match(answer.html, /<div role="alert"><h1>[^<]*<\/h1>/, name);
  assert.match(answer.html, title, name);
  assert.match(answer.html, message, name);
  assert.doesNotMatch(answer.html, /name="decision"/, `${name}: no consent form`);
}

for (const backend of backends()) {
  describe(`authorization error cards answer 400 (${backend})`, () => {
    let app: RunningApp;
    let browser: Client;
    let clientId: string;
    const redirectUri = 'https://assistant.example/oauth/callback';
    before(async () => {
      app = await startApp(backend);
      browser = (await signUp(app.url, 'errors')).client;
      const reg = await (
        await fetch(`${app.url}/api/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'Card Check', redirect_uris: [redirectUri] }),
        })
      ).json();
      clientId = reg.client_id;
    });
    after(() => app?.stop());

    test('the MCP consent page: an unusable request is a 400 error card, a good one the consent form', async () => {
      const base = {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'mcp',
        state: 's',
      };
      const consent = (o: Record<string, string>) =>
        `/oauth/consent?${new URLSearchParams({ ...base, ...o })}`;
      const cases: Record<string, [string, RegExp]> = {
        'no parameters': ['/oauth/consent', /Unknown client_id/],
        'unknown client': [consent({ client_id: 'pwclient_unknown' }), /Unknown client_id/],
        'unregistered redirect URI': [
          consent({ redirect_uri: 'https://assistant.example/other' }),
          /redirect_uri does not exactly match/,
        ],
        'plain PKCE': [consent({ code_challenge_method: 'plain' }), /PKCE with code_challenge_method=S256/],
        'bad scope': [consent({ scope: 'admin' }), /The only scope is/],
      };
      for (const [name, [path, message]] of Object.entries(cases)) {
        for (const who of [browser, undefined]) {
          assertErrorCard(
            await navigate(app.url, path, who),
            `${name} (${who ? 'signed in' : 'signed out'})`,
            /This authorization request cannot continue/,
            message,
          );
        }
      }
      const good = await navigate(app.url, consent({}), browser);
      assert.equal(good.response.status, 200);
      assert.match(good.html, /name="decision"/);
      assert.match(good.html, /Allow Card Check to use your Postwave account\?/);
    });

    test('the CLI approval page and its authorize route: a broken link is a 400 error card', async () => {
      const base = {
        redirect_uri: 'http://127.0.0.1:9/callback',
        state: 'st4te',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        device_name: 'Laptop',
      };
      const query = (o: Record<string, string>) => new URLSearchParams({ ...base, ...o }).toString();
      const cases: Record<string, [string, RegExp]> = {
        'no parameters': ['', /redirect_uri must be a loopback URL/],
        'not a loopback redirect': [
          query({ redirect_uri: 'https://evil.example/callback' }),
          /redirect_uri must be a loopback URL/,
        ],
        'short challenge': [query({ code_challenge: 'x' }), /code_challenge must be base64url/],
        'plain PKCE': [query({ code_challenge_method: 'plain' }), /code_challenge_method must be S256/],
      };
      for (const [name, [q, message]] of Object.entries(cases)) {
        for (const path of [`/cli/authorize?${q}`, `/api/cli/authorize?${q}`]) {
          for (const who of [browser, undefined]) {
            assertErrorCard(
              await navigate(app.url, path, who),
              `${name}: ${path.split('?')[0]} (${who ? 'signed in' : 'signed out'})`,
              /This CLI sign-in link is not valid/,
              message,
            );
          }
        }
        // Not a browser: the route's problem, as before.
        const problem = await browser.json(`/api/cli/authorize?${q}`, {
          headers: { accept: 'application/json' },
        });
        assert.equal(problem.status, 400, name);
        assert.equal(problem.body.code, 'invalid_request', name);
      }
      const good = await navigate(app.url, `/cli/authorize?${query({})}`, browser);
      assert.equal(good.response.status, 200);
      assert.match(good.html, /Connect the Postwave CLI\?/);
      assert.match(good.html, /name="decision"/);
    });
  });
}
