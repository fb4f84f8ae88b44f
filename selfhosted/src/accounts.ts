import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  type AccountEntry,
  AccountsFile,
  type PublicAccount,
  type PublisherRegistry,
  toPublicAccount,
} from '@postwave/shared';
import type { z } from 'zod';

export class AccountsFileError extends Error {
  override name = 'AccountsFileError';
}

interface Snapshot {
  byId: ReadonlyMap<string, AccountEntry>;
  publicList: readonly PublicAccount[];
}

const empty: Snapshot = { byId: new Map(), publicList: [] };

/**
 * The accounts file, validated as a whole and swapped in atomically: a request sees either the
 * old set or the new one, and a bad new file never replaces a good one.
 */
export class AccountsStore {
  readonly file: string | undefined;
  readonly #publishers: PublisherRegistry;
  #snapshot: Snapshot = empty;

  constructor(file: string | undefined, publishers: PublisherRegistry) {
    this.file = file;
    this.#publishers = publishers;
  }

  /** Reads the file synchronously at start; throws AccountsFileError naming the file, account and field. */
  loadSync(): void {
    if (!this.file) return;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      throw new AccountsFileError(`Accounts file ${this.file} cannot be read: ${ioReason(error)}`);
    }
    this.#snapshot = this.#parse(text);
  }

  /** Re-reads the file; on any problem keeps the current accounts and throws why. */
  async reload(): Promise<number> {
    if (!this.file) return 0;
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      throw new AccountsFileError(`Accounts file ${this.file} cannot be read: ${ioReason(error)}`);
    }
    const next = this.#parse(text);
    this.#snapshot = next;
    return next.byId.size;
  }

  /** Without an accounts file every account in a request is refused with this deployment's own reason. */
  get configured(): boolean {
    return this.file !== undefined;
  }

  get size(): number {
    return this.#snapshot.byId.size;
  }

  get(id: string): AccountEntry | undefined {
    return this.#snapshot.byId.get(id);
  }

  list(): readonly PublicAccount[] {
    return this.#snapshot.publicList;
  }

  #parse(text: string): Snapshot {
    const file = this.file!;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new AccountsFileError(`Accounts file ${file} is not valid JSON${jsonPosition(error)}`);
    }
    const parsed = AccountsFile.safeParse(raw);
    if (!parsed.success) throw new AccountsFileError(describeIssue(file, raw, parsed.error.issues[0]!));

    const byId = new Map<string, AccountEntry>();
    const indexOf = new Map<string, number>();
    parsed.data.accounts.forEach((account, index) => {
      const where = `${file}: accounts[${index}] (id "${account.id}")`;
      const earlier = indexOf.get(account.id);
      if (earlier !== undefined) {
        throw new AccountsFileError(`${where}, field "id": duplicate of accounts[${earlier}]`);
      }
      const publisher = this.#publishers.get(account.platform);
      if (!publisher) {
        const known = this.#publishers.ids().join(', ') || 'none';
        throw new AccountsFileError(
          `${where}, field "platform": unknown platform "${account.platform}" (supported: ${known})`,
        );
      }
      const credentials = publisher.credentialsSchema.safeParse(account.credentials);
      if (!credentials.success) {
        const issue = credentials.error.issues[0]!;
        const field = ['credentials', ...issue.path.map(String)].join('.');
        throw new AccountsFileError(`${where}, field "${field}": ${issue.message}`);
      }
      const options = optionsProblem(publisher, account.options);
      if (options) throw new AccountsFileError(`${where}, field "${options.field}": ${options.message}`);
      indexOf.set(account.id, index);
      byId.set(account.id, account);
    });
    return { byId, publicList: [...byId.values()].map(toPublicAccount) };
  }
}

/**
 * The first problem of an account's default `options`, checked against its platform's options
 * schema at start, as credentials are: a request could neither see nor remove a bad default, since
 * the file's options are merged under the request's. A field left out is not a problem here (a
 * request may give it); a wrong value or an unknown field is. `firstComment` is checked by
 * validation itself: only its type here.
 */
function optionsProblem(
  publisher: { optionsSchema: z.ZodType },
  options: Record<string, unknown> | undefined,
): { field: string; message: string } | undefined {
  if (!options) return undefined;
  const { firstComment, ...rest } = options;
  if (firstComment !== undefined && typeof firstComment !== 'string')
    return { field: 'options.firstComment', message: 'must be a string' };
  const parsed = publisher.optionsSchema.safeParse(rest);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues.find(
    (i) => !(i.code === 'invalid_type' && valueAt(rest, i.path) === undefined),
  );
  return issue && { field: ['options', ...issue.path.map(String)].join('.'), message: issue.message };
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path)
    at = at && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

function describeIssue(file: string, raw: unknown, issue: z.core.$ZodIssue): string {
  const [top, index, ...rest] = issue.path;
  if (top === 'accounts' && typeof index === 'number') {
    const entry = (raw as { accounts: unknown[] }).accounts[index];
    const id =
      entry && typeof entry === 'object' && typeof (entry as { id?: unknown }).id === 'string'
        ? ` (id "${(entry as { id: string }).id}")`
        : ' (no id)';
    const field = rest.length ? `, field "${rest.map(String).join('.')}"` : '';
    return `${file}: accounts[${index}]${id}${field}: ${issue.message}`;
  }
  const field = issue.path.length ? `field "${issue.path.map(String).join('.')}"` : 'top level';
  return `${file}: ${field}: ${issue.message} (expected { "accounts": [ ... ] })`;
}

// V8's JSON errors quote part of the input, which here could be a credential: keep only the position.
function jsonPosition(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return ` (line ${lineColumn[1]}, column ${lineColumn[2]})`;
  const position = /at position (\d+)/.exec(message);
  if (position) return ` (at character ${position[1]})`;
  if (/end of JSON input/i.test(message)) return ' (unexpected end of file)';
  return '';
}

function ioReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? 'unknown error';
}

/** The validation issue for any account while no accounts file is configured (SERVICE_ACCOUNTS_FILE unset). */
export const accountsNotConfigured = {
  code: 'accounts_not_configured',
  message: 'No accounts are configured on this server (SERVICE_ACCOUNTS_FILE is not set)',
} as const;
