import { parseArgs } from 'node:util';
import { Api, ApiError, hintFor } from './api.ts';
import { completionScript } from './completion.ts';
import { deleteConfig, type Env, readConfig, resolveServer, writeConfig } from './config.ts';
import { login } from './login.ts';
import { exportPosts, type ImportReport, importFile } from './transfer.ts';
import { uploadFile } from './upload.ts';
import { version } from './version.ts';

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  env: Env;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Where the upload progress bar is drawn (only when it is a terminal). */
  progress: NodeJS.WriteStream | undefined;
  readStdin: () => string;
}

const globalHelp = `postwave: publish and schedule posts on a Postwave Scheduler.

Usage: postwave <command> [options]

Commands:
  login                 connect this computer to your account (opens the browser)
  logout                forget the token stored on this computer
  whoami                show the signed-in user and server
  accounts              list your connected social accounts
  post <message>        publish now, schedule (--at), queue (--queue) or save a draft (--draft)
  validate <message>    check a post against its accounts without publishing
  posts list            list posts (newest first)
  posts show <id>       show one post with its per-account results
  posts delete <id>     delete a draft, scheduled or failed post
  import <file>         create posts from a CSV or JSON file (--dry-run to check it first)
  export                write your posts with their results as CSV or JSON
  queue show <account>  an account's posting slots, queued posts and next free slots
  queue set <account>   replace an account's posting slots (--slot, --timezone)
  completion bash|zsh   print a shell completion script (source <(postwave completion bash))

Global options:
  --server <url>        the Scheduler (default: POSTWAVE_URL, then the server you logged in to)
  --json                print machine-readable JSON
  -h, --help            help for any command (e.g. postwave post --help)
  -v, --version         print the version

Environment: POSTWAVE_URL, POSTWAVE_TOKEN (use a token instead of the stored one),
POSTWAVE_CONFIG_DIR (default: $XDG_CONFIG_HOME/postwave or ~/.config/postwave).
`;

const help: Record<string, string> = {
  login: `Usage: postwave login [--server <url>] [--no-browser] [--device <name>]

Opens the Scheduler in your browser to approve this device, then stores a CLI token
(file mode 0600) in the config directory. The token shows up under API tokens in the
web app, where you can revoke it.

  --no-browser      print the URL instead of opening a browser (e.g. over SSH, open it
                    on a machine that can reach this one's 127.0.0.1)
  --device <name>   the name shown on the approval page and in the token list

Example: postwave login --server https://postwave.example.com
`,
  logout: `Usage: postwave logout

Deletes the stored token from this computer. Revoke it in the web app (API tokens) to
invalidate it everywhere.
`,
  whoami: `Usage: postwave whoami [--json]

Shows the server, the user and the token in use.
`,
  accounts: `Usage: postwave accounts [--json]

Lists your connected accounts with the ids that --account takes.
`,
  post: `Usage: postwave post <message> --account <id> [--account <id> ...] [options]

  -a, --account <id>   target account id (repeatable; see postwave accounts)
  -m, --media <file>   attach a file (repeatable); uploaded with a progress bar
  --alt-text <text>    alt text for the media, in order: the first --alt-text
                       describes the first --media (repeatable)
  --thread <text>      one more post after the message, published as a reply
                       chain (repeatable, up to 25, in order)
  --override <id>=<message>
                       that account's own text instead of the message (repeatable)
  --first-comment <text>
                       posted right after the post, on every account; or
                       <id>=<text> for one account (repeatable)
  --at <datetime>      schedule instead of publishing now (ISO 8601 with offset,
                       e.g. 2026-12-01T09:30:00+01:00)
  --queue              take the next free slot of every account's queue (see postwave
                       queue); with --at, the first free slot after that time
  --draft              save as a draft
  --json               print the created post as JSON

The message may be "-" to read it from standard input. Platforms differ in what they
take (threads, first comments, alt text): postwave validate says what each account
refuses before anything is published.

Examples:
  postwave post "Hello world" --account 5f0c...
  postwave post "Launch day" -a 5f0c... -a 81ab... --media photo.jpg --alt-text "The team on stage" --at 2026-12-01T09:30:00+01:00
  postwave post "A thread (1/3)" -a 5f0c... --thread "Part two (2/3)" --thread "The end (3/3)"
  postwave post "Long announcement text" -a 5f0c... -a 81ab... --override 81ab...="Short version"
  postwave post "New video" -a 5f0c... --first-comment "Links in this comment"
  echo "From a pipe" | postwave post - --account 5f0c... --draft
  postwave post "In the next free slot" -a 5f0c... --queue
`,
  validate: `Usage: postwave validate <message> --account <id> [...] [--media <file> ...] [--json]

Takes the same options as postwave post (--alt-text, --thread, --override,
--first-comment). Checks the post against every account (text length, media count
and types, each thread part, first comment and alt text where the platform has them)
and publishes nothing. Exits 1 when the post is invalid.
`,
  completion: `Usage: postwave completion <bash|zsh>

Prints a completion script for commands, options and --status values.

  bash:  source <(postwave completion bash)     (or save it in
         ~/.local/share/bash-completion/completions/postwave)
  zsh:   source <(postwave completion zsh)      (or save it as _postwave on your $fpath)
`,
  import: `Usage: postwave import <file> [--dry-run] [--json]

Creates the posts of a CSV or JSON file (all or nothing) and prints a report per row.
With --dry-run nothing is created: every row is checked (accounts, dates, media, the
platforms' limits) and its errors listed. Importing the same file again creates nothing
new. Exits 1 when a row is invalid. The upload shows a progress bar on a terminal.

CSV columns: message (required), accounts (ids or handles such as @news, separated by
| or spaces), scheduledAt (ISO 8601 with offset), postingMode (draft or schedule), media
(URLs separated by |), accountOptions (JSON) and options.<account|platform>.<name>.
A .json file is an array of post requests (what postwave export --format json writes).
See docs/import-export.md.

Examples:
  postwave import posts.csv --dry-run
  postwave import posts.csv
`,
  export: `Usage: postwave export [--format csv|json] [--status s] [--from d] [--to d] [-o file]

Streams your posts with their per-account results (oldest first) to standard output or
to a file, with a byte counter on a terminal.

  --format csv|json    default csv
  --status <status>    draft, scheduled, posted or failed
  --from <date>        posts whose time (posted, else scheduled, else created) is on or
                       after this date (2026-12-01) or date-time (ISO 8601 with offset)
  --to <date>          ... and before this one
  -o, --output <file>  write to a file instead of standard output

Examples:
  postwave export -o posts.csv
  postwave export --format json --status posted --from 2026-01-01 --to 2026-02-01
`,
  queue: `Usage: postwave queue <show|set> <account id>
  postwave queue show <account> [--json]
  postwave queue set <account> [--timezone <IANA zone>] [--slot <days>@<HH:MM> ...] [--json]

A queue is an account's weekly posting slots in a time zone; postwave post --queue takes
the next slot that is free in every target account's queue.

  --slot <days>@<HH:MM>  repeatable; days are mon..sun (comma-separated), 1..7 (Monday
                         is 1), weekdays, weekends or daily. No --slot clears the queue.
  --timezone <zone>      IANA zone, e.g. Europe/Berlin (default: the queue's current zone)

Example: postwave queue set 5f0c... --timezone Europe/Berlin --slot weekdays@09:00 --slot mon,thu@17:30
`,
  posts: `Usage: postwave posts <list|show|delete>
  postwave posts list [--status draft|scheduled|posted|failed] [--limit n] [--cursor c] [--json]
  postwave posts show <id> [--json]
  postwave posts delete <id> [--json]
`,
};

const options = {
  server: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  'no-browser': { type: 'boolean' },
  device: { type: 'string' },
  account: { type: 'string', short: 'a', multiple: true },
  media: { type: 'string', short: 'm', multiple: true },
  'alt-text': { type: 'string', multiple: true },
  thread: { type: 'string', multiple: true },
  override: { type: 'string', multiple: true },
  'first-comment': { type: 'string', multiple: true },
  at: { type: 'string' },
  draft: { type: 'boolean' },
  queue: { type: 'boolean' },
  slot: { type: 'string', multiple: true },
  timezone: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'dry-run': { type: 'boolean' },
  format: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  output: { type: 'string', short: 'o' },
} as const;

type Values = ReturnType<typeof parse>['values'];

function parse(args: string[]) {
  return parseArgs({ args, options, allowPositionals: true, strict: true });
}

export async function run(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${(error as Error).message}\nRun postwave --help for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.version || command === 'version') {
    io.stdout(`${version}\n`);
    return 0;
  }
  if (!command) {
    (values.help ? io.stdout : io.stderr)(globalHelp);
    return values.help ? 0 : 2;
  }
  if (command === 'help') {
    io.stdout(help[rest[0] ?? ''] ?? globalHelp);
    return 0;
  }
  if (values.help) {
    const text = help[command];
    if (!text) {
      io.stderr(`Unknown command "${command}".\n\n${globalHelp}`);
      return 2;
    }
    io.stdout(text);
    return 0;
  }
  try {
    switch (command) {
      case 'login':
        return await loginCommand(values, io);
      case 'logout':
        deleteConfig(io.env);
        io.stdout(
          values.json
            ? `${JSON.stringify({ loggedOut: true })}\n`
            : 'Logged out: the stored token is deleted.\n',
        );
        return 0;
      case 'whoami':
        return await whoami(values, io);
      case 'accounts':
        return await accountsCommand(values, io);
      case 'post':
        return await postCommand(values, rest, io);
      case 'validate':
        return await validateCommand(values, rest, io);
      case 'queue':
        return await queueCommand(values, rest, io);
      case 'posts':
        return await postsCommand(values, rest, io);
      case 'import':
        return await importCommand(values, rest, io);
      case 'export':
        return await exportCommand(values, rest, io);
      case 'completion': {
        const script = completionScript(rest[0]);
        if (!script) throw new UsageError('Usage: postwave completion <bash|zsh>');
        io.stdout(script);
        return 0;
      }
      default:
        io.stderr(`Unknown command "${command}".\n\n${globalHelp}`);
        return 2;
    }
  } catch (error) {
    return report(error, values, io);
  }
}

function report(error: unknown, values: Values, io: Io): number {
  if (error instanceof UsageError) {
    io.stderr(`${error.message}\n`);
    return 2;
  }
  if (error instanceof ApiError) {
    if (values.json)
      io.stdout(`${JSON.stringify(error.body ?? { code: error.code, detail: error.message })}\n`);
    const hint = hintFor(error);
    io.stderr(`Error: ${error.message}${hint ? `\n${hint}` : ''}\n`);
    return 1;
  }
  io.stderr(`Error: ${(error as Error).message}\n`);
  return 1;
}

function apiFor(values: Values, io: Io, needToken = true): Api {
  const stored = readConfig(io.env);
  const server = resolveServer(values.server, io.env, stored);
  if (!server)
    throw new UsageError(
      'No server: pass --server <url>, set POSTWAVE_URL, or run postwave login --server <url>',
    );
  const token =
    io.env.POSTWAVE_TOKEN || (stored.server && sameServer(stored.server, server) ? stored.token : undefined);
  if (needToken && !token)
    throw new UsageError(`Not logged in to ${server}: run postwave login --server ${server}`);
  return new Api({ server, token });
}

function sameServer(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

function out(io: Io, values: Values, data: unknown, text: string): void {
  io.stdout(values.json ? `${JSON.stringify(data, null, 2)}\n` : text);
}

async function loginCommand(values: Values, io: Io): Promise<number> {
  const api = apiFor(values, io, false);
  const result = await login({
    server: api.server,
    deviceName: values.device,
    openBrowser: !values['no-browser'],
    log: (line) => io.stderr(`${line}\n`),
  });
  writeConfig(io.env, { server: api.server, token: result.token, expiresAt: result.expiresAt });
  out(
    io,
    values,
    { server: api.server, expiresAt: result.expiresAt },
    `Logged in to ${api.server} (token valid until ${result.expiresAt}).\n`,
  );
  return 0;
}

interface WhoAmI {
  user: { id: string; email: string; name: string | null };
  token: { id: string; kind: string; name: string; expiresAt: string | null } | null;
}

async function whoami(values: Values, io: Io): Promise<number> {
  const api = apiFor(values, io);
  const me = await api.request<WhoAmI>('GET', '/api/cli/whoami');
  out(
    io,
    values,
    { server: api.server, ...me },
    `${me.user.name ? `${me.user.name} <${me.user.email}>` : me.user.email} on ${api.server}\n` +
      (me.token
        ? `Token: ${me.token.name}${me.token.expiresAt ? `, expires ${me.token.expiresAt}` : ''}\n`
        : ''),
  );
  return 0;
}

interface Account {
  id: string;
  platform: string;
  platformAccountId: string;
  label?: string | null;
  username?: string | null;
}

async function accountsCommand(values: Values, io: Io): Promise<number> {
  const api = apiFor(values, io);
  const { accounts } = await api.request<{ accounts: Account[] }>('GET', '/api/v1/accounts');
  const text = accounts.length
    ? table(
        ['ID', 'PLATFORM', 'TARGET', 'LABEL'],
        accounts.map((a) => [a.id, a.platform, a.username ?? a.platformAccountId, a.label ?? '']),
      )
    : 'No accounts connected yet: connect one in the web app.\n';
  out(io, values, { accounts }, text);
  return 0;
}

function messageFrom(rest: string[], io: Io): string {
  if (rest.length === 0)
    throw new UsageError('Give the message as the first argument (or - to read standard input)');
  if (rest.length > 1) throw new UsageError('Quote the message: postwave post "Hello world" --account <id>');
  return rest[0] === '-' ? io.readStdin().replace(/\n$/, '') : rest[0]!;
}

async function postBody(values: Values, rest: string[], io: Io, api: Api) {
  const message = messageFrom(rest, io);
  const accountIds = values.account ?? [];
  if (accountIds.length === 0)
    throw new UsageError('Pass at least one --account <id> (see postwave accounts)');
  const altTexts = values['alt-text'] ?? [];
  if (altTexts.length > (values.media ?? []).length)
    throw new UsageError('Each --alt-text describes one --media, in order: give a --media for each');
  const thread = (values.thread ?? []).map((text) => ({ message: text }));
  if (thread.length > 25) throw new UsageError('A thread has at most 25 --thread parts');
  const overrides = perAccount(values.override ?? [], accountIds, '--override', true);
  const comments = perAccount(values['first-comment'] ?? [], accountIds, '--first-comment', false);
  const media = [];
  for (const [index, file] of (values.media ?? []).entries()) {
    const uploaded = await uploadFile(api, file, values.json ? undefined : io.progress);
    const altText = altTexts[index];
    media.push(altText ? { ...uploaded, altText } : uploaded);
  }
  const accountOptions = Object.fromEntries(
    Object.entries(comments).map(([id, firstComment]) => [id, { firstComment }]),
  );
  return {
    message,
    accountIds,
    ...(media.length ? { media } : {}),
    ...(thread.length ? { thread } : {}),
    ...(Object.keys(overrides).length
      ? {
          overrides: Object.fromEntries(
            Object.entries(overrides).map(([id, text]) => [id, { message: text }]),
          ),
        }
      : {}),
    ...(Object.keys(accountOptions).length ? { accountOptions } : {}),
  };
}

/**
 * `<id>=<text>` values keyed by account id. The id must be one of the --account ids (so text that
 * itself contains "=" is never misread); without one, `required` refuses it, otherwise the text
 * applies to every account.
 */
function perAccount(
  values: readonly string[],
  accountIds: readonly string[],
  flag: string,
  required: boolean,
): Record<string, string> {
  const byAccount: Record<string, string> = {};
  for (const value of values) {
    const split = value.indexOf('=');
    const id = split > 0 ? value.slice(0, split) : undefined;
    if (id && accountIds.includes(id)) {
      byAccount[id] = value.slice(split + 1);
    } else if (required) {
      throw new UsageError(`${flag} takes <account id>=<text>, with an id given to --account`);
    } else {
      for (const accountId of accountIds) byAccount[accountId] ??= value;
    }
  }
  return byAccount;
}

interface Post {
  id: string;
  status: string;
  message: string;
  accountIds: string[];
  scheduledAt: string | null;
  postedAt: string | null;
  createdAt: string;
  results: {
    accountId: string;
    platform: string;
    status: string;
    url?: string;
    error?: { message: string };
    parts?: { index: number; status: string; url?: string }[];
    firstComment?: { status: string; url?: string };
  }[];
}

async function postCommand(values: Values, rest: string[], io: Io): Promise<number> {
  if (values.at && values.draft) throw new UsageError('Use either --at (schedule) or --draft, not both');
  if (values.queue && values.draft) throw new UsageError('Use either --queue or --draft, not both');
  if (values.at && Number.isNaN(Date.parse(values.at)))
    throw new UsageError('--at takes an ISO 8601 date-time with an offset, e.g. 2026-12-01T09:30:00+01:00');
  const api = apiFor(values, io);
  const body = await postBody(values, rest, io, api);
  const postingMode = values.draft ? 'draft' : values.queue ? 'queue' : values.at ? 'schedule' : 'now';
  const post = await api.request<Post>('POST', '/api/v1/posts', {
    ...body,
    postingMode,
    ...(values.at ? { scheduledAt: values.at } : {}),
  });
  out(io, values, post, describePost(post));
  return post.status === 'failed' ? 1 : 0;
}

async function validateCommand(values: Values, rest: string[], io: Io): Promise<number> {
  const api = apiFor(values, io);
  const body = await postBody(values, rest, io, api);
  const result = await api.request<{
    valid: boolean;
    results: {
      accountId: string;
      platform: string;
      valid: boolean;
      errors: { code: string; message: string; path?: string }[];
      warnings: { message: string }[];
    }[];
  }>('POST', '/api/v1/validation', body);
  const lines = result.results.map((r) => {
    const issues = [
      // The path says where: thread[1].message, accountOptions.<id>.firstComment, media[0].altText.
      ...r.errors.map((e) => `    error: ${e.message} (${e.code}${e.path ? ` at ${e.path}` : ''})`),
      ...r.warnings.map((w) => `    warning: ${w.message}`),
    ];
    return `${r.valid ? 'ok     ' : 'invalid'} ${r.accountId} (${r.platform})${issues.length ? `\n${issues.join('\n')}` : ''}`;
  });
  out(io, values, result, `${result.valid ? 'Valid' : 'Not valid'}\n${lines.join('\n')}\n`);
  return result.valid ? 0 : 1;
}

async function postsCommand(values: Values, rest: string[], io: Io): Promise<number> {
  const [sub, id, ...extra] = rest;
  if (extra.length) throw new UsageError(help.posts!);
  const api = apiFor(values, io);
  if (sub === 'list' || sub === undefined) {
    const query = new URLSearchParams();
    if (values.status) query.set('status', values.status);
    if (values.limit) query.set('limit', values.limit);
    if (values.cursor) query.set('cursor', values.cursor);
    const page = await api.request<{ posts: Post[]; nextCursor: string | null }>(
      'GET',
      `/api/v1/posts${query.size ? `?${query}` : ''}`,
    );
    const text = page.posts.length
      ? table(
          ['ID', 'STATUS', 'WHEN', 'MESSAGE'],
          page.posts.map((p) => [
            p.id,
            p.status,
            p.postedAt ?? p.scheduledAt ?? p.createdAt,
            preview(p.message),
          ]),
        ) + (page.nextCursor ? `More: postwave posts list --cursor ${page.nextCursor}\n` : '')
      : 'No posts.\n';
    out(io, values, page, text);
    return 0;
  }
  if (!id) throw new UsageError(`Usage: postwave posts ${sub} <id>`);
  if (sub === 'show') {
    const post = await api.request<Post>('GET', `/api/v1/posts/${encodeURIComponent(id)}`);
    out(io, values, post, describePost(post));
    return 0;
  }
  if (sub === 'delete') {
    await api.request('DELETE', `/api/v1/posts/${encodeURIComponent(id)}`);
    out(io, values, { deleted: id }, `Deleted post ${id}.\n`);
    return 0;
  }
  throw new UsageError(`Unknown posts command "${sub}".\n${help.posts}`);
}

async function importCommand(values: Values, rest: string[], io: Io): Promise<number> {
  if (rest.length !== 1) throw new UsageError(help.import!);
  const api = apiFor(values, io);
  const dryRun = values['dry-run'] === true;
  const report = await importFile(api, rest[0]!, { dryRun, progress: values.json ? undefined : io.progress });
  out(io, values, report, describeImport(report, dryRun));
  return report.rows.every((r) => r.valid) && (dryRun || report.committed) ? 0 : 1;
}

function describeImport(report: ImportReport, dryRun: boolean): string {
  const invalid = report.rows.filter((r) => !r.valid);
  const rows = report.rows.map((r) => [
    String(r.index),
    r.valid ? 'ok' : 'invalid',
    r.postId ?? '',
    r.errors
      .map((e) => `${e.path || e.accountId ? `${e.accountId ?? e.path}: ` : ''}${e.message} (${e.code})`)
      .join('; '),
  ]);
  const summary = invalid.length
    ? `${invalid.length} of ${report.rows.length} rows are invalid: nothing was imported.\n`
    : dryRun
      ? `All ${report.rows.length} rows are valid. Run without --dry-run to import them.\n`
      : `Imported ${report.rows.length} posts.\n`;
  return table(['ROW', 'STATUS', 'POST', 'ERRORS'], rows) + summary;
}

async function exportCommand(values: Values, rest: string[], io: Io): Promise<number> {
  if (rest.length) throw new UsageError(help.export!);
  const format = values.format ?? 'csv';
  if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json');
  const api = apiFor(values, io);
  const bytes = await exportPosts(api, {
    format,
    status: values.status,
    from: values.from,
    to: values.to,
    file: values.output,
    write: io.stdout,
    progress: values.output ? io.progress : undefined,
  });
  if (values.output) io.stderr(`Wrote ${bytes} bytes to ${values.output}.\n`);
  return 0;
}

function describePost(p: Post): string {
  const lines = [`Post ${p.id}: ${p.status}`];
  if (p.scheduledAt && p.status === 'scheduled') lines.push(`Scheduled for ${p.scheduledAt}`);
  if (p.postedAt) lines.push(`Posted at ${p.postedAt}`);
  lines.push(`Message: ${preview(p.message, 200)}`);
  for (const r of p.results ?? []) {
    lines.push(
      `  ${r.status.padEnd(7)} ${r.accountId} (${r.platform})${r.url ? ` ${r.url}` : ''}${r.error ? `: ${r.error.message}` : ''}`,
    );
    for (const part of r.parts ?? []) {
      if (part.index > 0)
        lines.push(`    part ${part.index}: ${part.status}${part.url ? ` ${part.url}` : ''}`);
    }
    if (r.firstComment) {
      lines.push(
        `    first comment: ${r.firstComment.status}${r.firstComment.url ? ` ${r.firstComment.url}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

function preview(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}

const dayNames = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const dayGroups: Record<string, number[]> = {
  daily: [1, 2, 3, 4, 5, 6, 7],
  weekdays: [1, 2, 3, 4, 5],
  weekends: [6, 7],
};

/** `mon,thu@09:00`, `weekdays@17:30`, `7@10:00`: the slots one --slot names. */
export function parseSlots(spec: string): { weekday: number; time: string }[] {
  const [days, time, ...extra] = spec.split('@');
  if (!days || !time || extra.length)
    throw new UsageError(`--slot "${spec}": use <days>@<HH:MM>, e.g. mon,thu@09:00 or weekdays@17:30`);
  const weekdays = days.split(',').flatMap((raw) => {
    const day = raw.trim().toLowerCase();
    if (dayGroups[day]) return dayGroups[day]!;
    const named = dayNames.indexOf(day.slice(0, 3));
    if (named >= 0 && dayNames.some((n) => day.startsWith(n))) return [named + 1];
    if (/^[1-7]$/.test(day)) return [Number(day)];
    throw new UsageError(
      `--slot "${spec}": "${raw}" is not a day (mon..sun, 1..7, weekdays, weekends, daily)`,
    );
  });
  // The server checks the time and answers which slot is wrong.
  return weekdays.map((weekday) => ({ weekday, time: time.trim() }));
}

interface QueueView {
  timezone: string;
  slots: { weekday: number; time: string }[];
  posts: { id: string; message: string; scheduledAt: string; onSlot: boolean }[];
  freeSlots: string[];
}

function describeQueue(q: QueueView): string {
  const byDay = dayNames.map((name, i) => {
    const times = q.slots.filter((s) => s.weekday === i + 1).map((s) => s.time);
    return times.length ? `  ${name}  ${times.join(', ')}` : undefined;
  });
  const lines = [
    `Time zone: ${q.timezone}`,
    q.slots.length ? 'Slots:' : 'No slots: postwave queue set <account> --slot weekdays@09:00',
    ...byDay.filter((l): l is string => Boolean(l)),
  ];
  if (q.posts.length) {
    lines.push('Queued posts:');
    for (const p of q.posts) lines.push(`  ${p.scheduledAt}  ${p.id}  ${preview(p.message)}`);
  }
  if (q.freeSlots.length) lines.push(`Next free slot: ${q.freeSlots[0]}`);
  return `${lines.join('\n')}\n`;
}

async function queueCommand(values: Values, rest: string[], io: Io): Promise<number> {
  const [sub, accountId, ...extra] = rest;
  if (extra.length || !accountId || (sub !== 'show' && sub !== 'set')) throw new UsageError(help.queue!);
  const api = apiFor(values, io);
  const path = `/api/v1/accounts/${encodeURIComponent(accountId)}/queue`;
  if (sub === 'show') {
    const queue = await api.request<QueueView>('GET', path);
    out(io, values, queue, describeQueue(queue));
    return 0;
  }
  const slots = (values.slot ?? []).flatMap(parseSlots);
  const timezone = values.timezone ?? (await api.request<QueueView>('GET', path)).timezone;
  const queue = await api.request<QueueView>('PUT', path, { timezone, slots });
  out(io, values, queue, describeQueue(queue));
  return 0;
}
