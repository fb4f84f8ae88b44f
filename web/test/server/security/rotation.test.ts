import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { toPlatformAccount } from '#server/accounts/credentials.ts';
import { saveAccount } from '#server/accounts/save-account.ts';
import { loadConfig } from '#server/config.ts';
import { createContext } from '#server/context.ts';
import { signUpWithWorkspace } from '#test/helpers/workspaces.ts';

const migrations = join(import.meta.dirname, '..', '..', '..', '..', 'drizzle');

test('key rotation: old ciphertexts stay readable through previous keys, the script re-encrypts them', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'postwave-rotate-'));
  const oldKey = randomBytes(32).toString('hex');
  const newKey = randomBytes(32).toString('base64url');
  try {
    const before = await createContext(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        MIGRATIONS_DIR: migrations,
        CREDENTIALS_ENCRYPTION_KEY: oldKey,
      }),
    );
    const user = await signUpWithWorkspace(before, {
      email: 'rotate@example.com',
      password: 'long enough password',
    });
    const { account } = await saveAccount(before, user.id, {
      platform: 'telegram',
      platformAccountId: '@news',
      credentials: { botToken: '1:secret-token' },
      profile: { name: 'News' },
    });
    await before.database.close();

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      MIGRATIONS_DIR: migrations,
      CREDENTIALS_ENCRYPTION_KEY: newKey,
      CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS: oldKey,
    };
    delete env.DATABASE_URL;
    const script = spawnSync(
      process.execPath,
      [join(import.meta.dirname, '..', '..', '..', 'scripts', 'rotate-credentials-key.ts')],
      {
        env,
        encoding: 'utf8',
      },
    );
    assert.equal(script.status, 0, script.stderr);
    assert.match(script.stdout, /Re-encrypted 1 account/);

    // Only the new key now: the re-encrypted row must still read.
    const after = await createContext(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        MIGRATIONS_DIR: migrations,
        CREDENTIALS_ENCRYPTION_KEY: newKey,
      }),
    );
    try {
      const result = await after.db.execute(sql`SELECT * FROM accounts`);
      const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0]!;
      assert.ok(!String(row.credentials).includes('secret-token'));
      const platformAccount = await toPlatformAccount(after, {
        id: account.id,
        workspaceId: user.id,
        platform: 'telegram',
        platformAccountId: '@news',
        label: null,
        username: null,
        profilePicture: null,
        credentials: String(row.credentials),
        grantId: null,
        status: 'active',
        health: 'ok',
        healthReason: null,
        healthCheckedAt: null,
        healthLeaseUntil: null,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      assert.deepEqual(platformAccount.credentials, { botToken: '1:secret-token' });
    } finally {
      await after.database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
