import { type EncryptionKey, parseEncryptionKey } from './encryption.ts';
import { persistedSecret } from './persisted-secret.ts';

export interface GeneratedSecrets {
  authSecret: string;
  credentialsKey: EncryptionKey;
  /** At most one short line: which secrets were generated, where, and what to do in production. */
  warnings: string[];
}

/**
 * AUTH_SECRET and CREDENTIALS_ENCRYPTION_KEY when set, else generated once under SECRETS_DIR and
 * reused, so the embedded default works out of the box. A warning says so when one is generated
 * and, in production (NODE_ENV=production), at every start while a generated one is in use: a
 * backup of the data directory then holds the keys beside the data they protect.
 */
export function generatedSecrets(
  config: { secretsDir: string; production: boolean },
  given: { authSecret: string | undefined; credentialsKey: EncryptionKey | undefined },
): GeneratedSecrets {
  const generated: string[] = [];
  let created = false;
  const generate = (variable: string, name: string, bytes: number) => {
    generated.push(variable);
    return persistedSecret(config.secretsDir, name, bytes, () => {
      created = true;
    });
  };
  const authSecret = given.authSecret ?? generate('AUTH_SECRET', 'auth-secret', 48);
  const credentialsKey =
    given.credentialsKey ??
    parseEncryptionKey(generate('CREDENTIALS_ENCRYPTION_KEY', 'credentials-encryption-key', 32));
  const warnings: string[] = [];
  if (generated.length > 0 && (created || config.production)) {
    const [one, two] = generated;
    warnings.push(
      `${two ? `${one} and ${two}` : one} ${created ? `${two ? 'were' : 'was'} generated` : `${two ? 'are' : 'is'} not set: using the generated one${two ? 's' : ''}`} in ${config.secretsDir}.` +
        (config.production
          ? ` In production set ${two ? 'them' : 'it'}, or keep SECRETS_DIR out of DATA_DIR backups.`
          : ''),
    );
  }
  return { authSecret, credentialsKey, warnings };
}
