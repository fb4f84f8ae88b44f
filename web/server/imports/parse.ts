import { ProblemError, type ProblemIssue, problem, zodIssues } from '@postwave/shared';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { ImportJsonBody, ImportPostRequest, maxImportRows, maxMediaPerRow } from './schema.ts';

/**
 * One row of an import file as the user wrote it, before accounts, dates and media are resolved.
 * Account and option references are still ids, handles or platform names.
 */
export interface ImportRowInput {
  index: number;
  message: string;
  accountRefs: string[];
  scheduledAt: string | undefined;
  postingMode: string | undefined;
  /** URLs to fetch, or media keys of the user's library (`{ key }` in JSON). */
  media: ({ url: string } | { key: string })[];
  /** Options keyed by account id, handle or platform, as in the file. */
  options: Record<string, Record<string, unknown>>;
  errors: ProblemIssue[];
}

/** `|`, `,` and whitespace separate account references and media URLs in a CSV cell. */
const listSeparator = /[|,\s]+/;
const splitList = (cell: string | undefined) => (cell ?? '').split(listSeparator).filter(Boolean);

const tooMany = (rows: number) =>
  new ProblemError(
    problem('validation_failed', `The file has ${rows} rows; at most ${maxImportRows} per import`, {
      errors: [
        { code: 'too_many_rows', message: `Split the file into parts of ${maxImportRows} rows or fewer` },
      ],
    }),
  );

/** A cell of an `options.<ref>.<name>` column: JSON when it parses (true, 3, ["a"]), else the text. */
function optionValue(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

/**
 * CSV with a header row. Columns (case-sensitive; others, such as an export's `id`, `status` or
 * `results`, are ignored): `message` (required), `accounts`, `scheduledAt`, `postingMode`, `media`,
 * `accountOptions` (a JSON object keyed by account id, handle or platform) and
 * `options.<account id|handle|platform>.<option>` (one option per column).
 */
export function parseCsvImport(text: string): ImportRowInput[] {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, {
      columns: true,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      // Stops early on a hostile file: one more row than allowed proves it is too many.
      to: maxImportRows + 1,
    });
  } catch (error) {
    // By its code too: Next bundles may hold more than one copy of the class.
    if (error instanceof CsvError || /^CSV_/.test(String((error as { code?: unknown }).code)))
      throw new ProblemError(problem('invalid_request', `The CSV is malformed: ${(error as Error).message}`));
    throw error;
  }
  if (records.length > maxImportRows) throw tooMany(records.length);
  if (records.length === 0) throw new ProblemError(problem('invalid_request', 'The file has no rows'));
  const header = Object.keys(records[0]!);
  if (!header.includes('message'))
    throw new ProblemError(problem('invalid_request', 'The CSV header must have a `message` column'));
  return records.map((record, i) => {
    const errors: ProblemIssue[] = [];
    const options: ImportRowInput['options'] = {};
    const json = record.accountOptions?.trim();
    if (json) {
      try {
        const parsed: unknown = JSON.parse(json);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        for (const [ref, value] of Object.entries(parsed as Record<string, unknown>)) {
          if (value && typeof value === 'object' && !Array.isArray(value))
            options[ref] = { ...(value as Record<string, unknown>) };
          else
            errors.push({
              path: 'accountOptions',
              code: 'invalid_options',
              message: `Options for "${ref}" must be an object`,
            });
        }
      } catch {
        errors.push({
          path: 'accountOptions',
          code: 'invalid_options',
          message: 'accountOptions must be a JSON object',
        });
      }
    }
    for (const [column, cell] of Object.entries(record)) {
      const match = /^options\.(.+)\.([^.]+)$/.exec(column);
      if (!match || cell === '') continue;
      const [, ref, name] = match;
      options[ref!] = { ...options[ref!], [name!]: optionValue(cell) };
    }
    const media = splitList(record.media).map((url) => ({ url }));
    if (media.length > maxMediaPerRow)
      errors.push({
        path: 'media',
        code: 'too_many_media',
        message: `At most ${maxMediaPerRow} media per row`,
      });
    return {
      index: i + 1,
      message: record.message ?? '',
      accountRefs: splitList(record.accounts),
      scheduledAt: record.scheduledAt?.trim() || undefined,
      postingMode: record.postingMode?.trim() || undefined,
      media,
      options,
      errors,
    };
  });
}

/** A JSON array of post requests (an export in JSON reads back as one). */
export function parseJsonImport(value: unknown): ImportRowInput[] {
  const array = ImportJsonBody.safeParse(value);
  if (!array.success)
    throw new ProblemError(problem('invalid_request', 'A JSON import is an array of post requests'));
  if (array.data.length > maxImportRows) throw tooMany(array.data.length);
  if (array.data.length === 0) throw new ProblemError(problem('invalid_request', 'The file has no rows'));
  return array.data.map((element, i) => {
    const parsed = ImportPostRequest.safeParse(element);
    if (!parsed.success) {
      return {
        index: i + 1,
        message: '',
        accountRefs: [],
        scheduledAt: undefined,
        postingMode: undefined,
        media: [],
        options: {},
        errors: zodIssues(parsed.error),
      };
    }
    const row = parsed.data;
    const items = row.media == null ? [] : Array.isArray(row.media) ? row.media : [row.media];
    const errors: ProblemIssue[] = [];
    const media: ImportRowInput['media'] = [];
    items.forEach((item, m) => {
      if (typeof item === 'string') media.push({ url: item });
      else if (item.key) media.push({ key: item.key });
      else if (item.url) media.push({ url: item.url });
      else errors.push({ path: `media[${m}]`, code: 'invalid_media', message: 'Give a media key or a URL' });
    });
    return {
      index: i + 1,
      message: row.message,
      accountRefs: row.accountIds,
      scheduledAt: row.scheduledAt ?? undefined,
      postingMode: row.postingMode,
      media,
      options: row.accountOptions ?? {},
      errors,
    };
  });
}
