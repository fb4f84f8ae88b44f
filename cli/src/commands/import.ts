import { type Context, type OptionSpecs, UsageError, unexpectedArgument } from '../command.ts';
import { table } from '../format.ts';
import type { ImportReport } from '../responses.ts';
import { importFile } from '../transfer.ts';

export const summary = 'create posts from a CSV or JSON file';
export const synopsis = [
  ['import <file>', 'create posts from a CSV or JSON file (--dry-run to check it first)'],
] as const;

export const help = `Usage: postwave import <file> [--dry-run] [--json]

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
`;

export const options = {
  'dry-run': { type: 'boolean', summary: 'check every row, create nothing' },
} as const satisfies OptionSpecs;

export const positional = { kind: 'file', glob: '*.(csv|json)' } as const;

export async function run({ values, args, io, api, print }: Context<typeof options>): Promise<number> {
  if (args.length > 1) throw unexpectedArgument('import', args[1]!);
  if (args.length !== 1) throw new UsageError(help);
  const client = api();
  const dryRun = values['dry-run'] === true;
  const report = await importFile(client, args[0]!, {
    dryRun,
    progress: values.json ? undefined : io.progress,
  });
  print(report, describeImport(report, dryRun));
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
