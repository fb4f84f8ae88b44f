import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { platformModules } from '../../src/platforms/registry.ts';
import type { Env } from '../../src/platforms/types.ts';
import { mentions, readEnvDoc } from '../support/env-docs.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The environment variables contract section C names for each platform, with the default it gives
 * (undefined: the contract names no default, or the value is a setting rather than a URL).
 */
const contractEnv: { platform: string; name: string; fallback?: string }[] = [
  { platform: 'x', name: 'X_API_URL', fallback: 'https://api.x.com' },
  { platform: 'x', name: 'X_OAUTH_AUTHORIZE_URL' },
  { platform: 'threads', name: 'THREADS_API_URL', fallback: 'https://graph.threads.net' },
  { platform: 'threads', name: 'THREADS_OAUTH_AUTHORIZE_URL' },
  { platform: 'linkedin', name: 'LINKEDIN_API_URL', fallback: 'https://api.linkedin.com' },
  { platform: 'linkedin', name: 'LINKEDIN_OAUTH_URL', fallback: 'https://www.linkedin.com/oauth/v2' },
  { platform: 'facebook', name: 'FACEBOOK_GRAPH_URL', fallback: 'https://graph.facebook.com' },
  { platform: 'facebook', name: 'FACEBOOK_OAUTH_AUTHORIZE_URL' },
  { platform: 'instagram', name: 'INSTAGRAM_GRAPH_URL', fallback: 'https://graph.instagram.com' },
  { platform: 'tiktok', name: 'TIKTOK_API_URL', fallback: 'https://open.tiktokapis.com' },
  { platform: 'tiktok', name: 'TIKTOK_OAUTH_AUTHORIZE_URL' },
  { platform: 'pinterest', name: 'PINTEREST_API_URL', fallback: 'https://api.pinterest.com' },
  { platform: 'pinterest', name: 'PINTEREST_OAUTH_AUTHORIZE_URL' },
  { platform: 'reddit', name: 'REDDIT_API_URL', fallback: 'https://oauth.reddit.com' },
  { platform: 'reddit', name: 'REDDIT_AUTH_URL', fallback: 'https://www.reddit.com' },
  {
    platform: 'google_business',
    name: 'GOOGLE_BUSINESS_API_URL',
    fallback: 'https://mybusiness.googleapis.com',
  },
  { platform: 'google_business', name: 'GOOGLE_OAUTH_TOKEN_URL' },
  { platform: 'slack', name: 'SLACK_API_URL', fallback: 'https://slack.com/api' },
  { platform: 'nostr', name: 'NOSTR_RELAYS' },
  { platform: 'devto', name: 'DEVTO_API_URL', fallback: 'https://dev.to/api' },
  { platform: 'tumblr', name: 'TUMBLR_API_URL', fallback: 'https://api.tumblr.com' },
  { platform: 'farcaster', name: 'FARCASTER_API_URL', fallback: 'https://api.neynar.com' },
  { platform: 'farcaster', name: 'NEYNAR_API_KEY' },
  { platform: 'vk', name: 'VK_API_URL', fallback: 'https://api.vk.ru/method' },
  { platform: 'medium', name: 'MEDIUM_API_URL', fallback: 'https://api.medium.com' },
  { platform: 'hashnode', name: 'HASHNODE_API_URL', fallback: 'https://gql.hashnode.com' },
  { platform: 'twitch', name: 'TWITCH_API_URL', fallback: 'https://api.twitch.tv/helix' },
  { platform: 'twitch', name: 'TWITCH_OAUTH_URL', fallback: 'https://id.twitch.tv/oauth2' },
  { platform: 'twitch', name: 'TWITCH_CLIENT_SECRET' },
  { platform: 'dribbble', name: 'DRIBBBLE_API_URL', fallback: 'https://api.dribbble.com/v2' },
];

/** The variables a platform module reads while it builds its publisher and its connector. */
function variablesRead(platform: string): Set<string> {
  const module = platformModules.find((m) => m.id === platform);
  assert.ok(module, platform);
  const read = new Set<string>();
  const env: Env = new Proxy({} as Record<string, string | undefined>, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return target[name as string];
    },
  });
  module.create(env);
  module.createConnector?.(env);
  return read;
}

describe('contract C: the platforms’ environment variables', () => {
  it('each platform reads the variables the contract names for it', () => {
    const unread = contractEnv.filter(({ platform, name }) => !variablesRead(platform).has(name));
    assert.deepEqual(unread, []);
  });

  it('a malformed base URL stops the platform at start, naming the variable', () => {
    for (const { platform, name, fallback } of contractEnv) {
      if (!fallback) continue;
      const module = platformModules.find((m) => m.id === platform)!;
      const env = { [name]: 'not a url' };
      assert.throws(
        () => {
          module.create(env);
          module.createConnector?.(env);
        },
        new RegExp(name),
        name,
      );
    }
  });

  for (const file of ['docs/selfhosted.env', 'docs/scheduler.env']) {
    it(`${file} names every one of them, a base URL with the contract's default`, () => {
      const { text, lines } = readEnvDoc(join(root, file));
      assert.deepEqual(
        contractEnv.filter(({ name }) => !mentions(text, name)).map(({ name }) => name),
        [],
        `not named in ${file}`,
      );
      for (const { name, fallback } of contractEnv) {
        const line = lines.find((l) => l.name === name && !l.commented);
        if (line && fallback) assert.equal(line.value, fallback, `${file}: ${name}`);
      }
    });
  }
});
