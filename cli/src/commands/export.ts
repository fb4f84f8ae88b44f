import { type Context, type OptionSpecs, UsageError, unexpectedArgument } from '../command.ts';
import { checkStatus, postStatuses } from '../post-view.ts';
import { exportPosts } from '../transfer.ts';

export const summary = 'write your posts as CSV or JSON';
export const synopsis = [['export', 'write your posts with their results as CSV or JSON']] as const;

export const help = `Usage: postwave export [--format csv|json] [--status s] [--from d] [--to d] [-o file]

Streams your posts with their per-account results (oldest first) to standard output or
to a file, with a byte counter on a terminal.

  --format csv|json    default csv
  --status <status>    draft, scheduled, posted, failed or pending_approval
  --from <date>        posts whose time (posted, else scheduled, else created) is on or
                       after this date (2026-12-01) or date-time (ISO 8601 with offset)
  --to <date>          ... and before this one
  -o, --output <file>  write to a file instead of standard output
  --json               the same as --format json; with -o, standard output gets
                       { "output": <file>, "bytes": <n> }

Examples:
  postwave export -o posts.csv
  postwave export --format json --status posted --from 2026-01-01 --to 2026-02-01
`;

export const options = {
  format: { type: 'string', summary: 'output format', value: { name: 'format', complete: ['csv', 'json'] } },
  status: {
    type: 'string',
    summary: 'filter by status',
    value: { name: 'status', complete: postStatuses },
  },
  from: { type: 'string', summary: 'from date', value: { name: 'date' } },
  to: { type: 'string', summary: 'to date', value: { name: 'date' } },
  output: {
    type: 'string',
    short: 'o',
    summary: 'write to a file',
    value: { name: 'file', complete: 'file' },
  },
} as const satisfies OptionSpecs;

export async function run({ values, args, io, api }: Context<typeof options>): Promise<number> {
  if (args.length) throw unexpectedArgument('export', args[0]!);
  // --json (machine-readable, like every command) exports JSON; beside --format csv it contradicts it.
  if (values.json && values.format === 'csv')
    throw new UsageError('--json exports JSON: leave out --format csv');
  const format = values.format ?? (values.json ? 'json' : 'csv');
  if (format !== 'csv' && format !== 'json') throw new UsageError('--format is csv or json');
  checkStatus(values.status);
  for (const flag of ['from', 'to'] as const) {
    const when = values[flag];
    if (when !== undefined && Number.isNaN(Date.parse(when)))
      throw new UsageError(`--${flag} takes a date (2026-12-01) or an ISO 8601 date-time with an offset`);
  }
  const bytes = await exportPosts(api(), {
    format,
    status: values.status,
    from: values.from,
    to: values.to,
    file: values.output,
    write: io.stdout,
    progress: values.output ? io.progress : undefined,
  });
  if (values.output) {
    io.stderr(`Wrote ${bytes} bytes to ${values.output}.\n`);
    // The posts went to the file: stdout still answers --json, with what was written where.
    if (values.json) io.stdout(`${JSON.stringify({ output: values.output, bytes })}\n`);
  }
  return 0;
}
