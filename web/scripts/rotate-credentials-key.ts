/**
 * Re-encrypts every stored secret with the current CREDENTIALS_ENCRYPTION_KEY. Run it after
 * moving the old key to CREDENTIALS_ENCRYPTION_PREVIOUS_KEYS and setting a new current key;
 * afterwards the old key can be removed. Safe to run again and while the app is serving.
 *
 *   node web/scripts/rotate-credentials-key.ts
 */
import { and, eq } from 'drizzle-orm';
import { accountCredentialsAad, grantCredentialsAad } from '#server/accounts/credentials.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { accountGrants, accounts, connectStates } from '#server/db/schema.ts';
import { CredentialCipher } from '#server/security/encryption.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
if (config.warnings.length > 0) console.warn(config.warnings.join(' '));
const cipher = new CredentialCipher(config.credentialsKeys);
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolSize: 2,
});
try {
  await database.migrate(config.migrationsDir);
  const { db } = database;
  let rotated = 0;
  for (const row of await db.select({ id: accounts.id, credentials: accounts.credentials }).from(accounts)) {
    // An account on a shared grant has no credentials of its own: the grant's are rotated below.
    if (row.credentials === null || CredentialCipher.keyIdOf(row.credentials) === cipher.currentKeyId)
      continue;
    const aad = accountCredentialsAad(row.id);
    const fresh = cipher.encrypt(cipher.decrypt(row.credentials, aad), aad);
    // Only if nobody rewrote it meanwhile (a token refresh writes with the current key anyway).
    const updated = await db
      .update(accounts)
      .set({ credentials: fresh })
      .where(and(eq(accounts.id, row.id), eq(accounts.credentials, row.credentials)))
      .returning({ id: accounts.id });
    rotated += updated.length;
  }
  let grants = 0;
  for (const row of await db
    .select({ id: accountGrants.id, credentials: accountGrants.credentials })
    .from(accountGrants)) {
    if (CredentialCipher.keyIdOf(row.credentials) === cipher.currentKeyId) continue;
    const aad = grantCredentialsAad(row.id);
    const updated = await db
      .update(accountGrants)
      .set({ credentials: cipher.encrypt(cipher.decrypt(row.credentials, aad), aad) })
      .where(and(eq(accountGrants.id, row.id), eq(accountGrants.credentials, row.credentials)))
      .returning({ id: accountGrants.id });
    grants += updated.length;
  }
  // Connection states live ten minutes; expired ones are simply dropped.
  for (const row of await db.select().from(connectStates)) {
    if (CredentialCipher.keyIdOf(row.codeVerifier) === cipher.currentKeyId) continue;
    if (row.expiresAt.getTime() < Date.now()) {
      await db.delete(connectStates).where(eq(connectStates.stateHash, row.stateHash));
      continue;
    }
    const again = (ciphertext: string, aad: string) => cipher.encrypt(cipher.decrypt(ciphertext, aad), aad);
    await db
      .update(connectStates)
      .set({
        codeVerifier: again(row.codeVerifier, `connect:${row.stateHash}`),
        secret: row.secret === null ? null : again(row.secret, `connect-secret:${row.stateHash}`),
      })
      .where(eq(connectStates.stateHash, row.stateHash));
  }
  console.log(
    `Re-encrypted ${rotated} account credential(s) and ${grants} shared grant(s) with key ${cipher.currentKeyId}.`,
  );
} finally {
  await database.close();
}
