import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discordModule } from '../../../src/platforms/discord/index.ts';
import { PublisherRegistry } from '../../../src/platforms/registry.ts';

describe('Discord module', () => {
  it('is registered', () => {
    const publisher = PublisherRegistry.fromEnv({}).get('discord');
    assert.equal(publisher?.displayName, 'Discord');
    assert.ok(publisher.concurrency >= 1);
  });

  it('refuses malformed settings at start, naming the variable', () => {
    assert.throws(() => discordModule.create({ DISCORD_API_URL: 'ftp://discord.com' }), /DISCORD_API_URL/);
    assert.throws(() => discordModule.create({ DISCORD_MAX_FILE_BYTES: '10MB' }), /DISCORD_MAX_FILE_BYTES/);
    assert.throws(
      () => discordModule.create({ DISCORD_MAX_REQUEST_BYTES: '-1' }),
      /DISCORD_MAX_REQUEST_BYTES/,
    );
  });
});
