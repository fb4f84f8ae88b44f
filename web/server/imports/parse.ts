import { ProblemError, type ProblemIssue, problem, restoreCsvCell, zodIssues } from '@postwave/shared';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import type { RecycleSettings } from '#server/db/schema.ts';
import { parseRecycle } from '#server/posts/recycle-schema.ts';
import {
  ImportComposerFields,
  ImportJsonBody,
  ImportPostRequest,
  maxImportRows,
  maxMediaPerRow,
} from './schema.ts';

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
  /** URLs to fetch, or media keys of the user's library (`{ key }` in JSON), each with its alt text. */
  media: ImportMediaItem[];
  /** Options keyed by account id, handle or platform, as in the file (`firstComment` among them). */
  options: Record<string, Record<string, unknown>>;
  /** Per-account versions keyed by account id or handle, as in the file. */
  overrides: Record<string, { message?: string; media?: ImportMediaItem[] }>;
  /** The thread's parts after the first message. */
  thread: { message: string; media: ImportMediaItem[] }[];
  /** Evergreen recycling, checked as `POST /api/v1/posts` checks it. */
  recycle: RecycleSettings | undefined;
  errors: ProblemIssue[];
}

export type ImportMediaItem = ({ url: string } | { key: string }) & { altText?: string };

type RawMedia = string | { key?: string | undefined; url?: string | undefined; altText?: unknown };

/** A media item of a file (a URL, or an object with `key` or `url` and maybe `altText`); undefined when neither. */
function mediaItem(item: RawMedia): ImportMediaItem | undefined {
  if (typeof item === 'string') return { url: item };
  const altText = typeof item.altText === 'string' && item.altText !== '' ? { altText: item.altText } : {};
  if (item.key) return { key: item.key, ...altText };
  if (item.url) return { url: item.url, ...altText };
  return undefined;
}

/** Media items at `path`, errors for the ones that name nothing. */
function mediaItems(items: readonly RawMedia[], path: string, errors: ProblemIssue[]): ImportMediaItem[] {
  const out: ImportMediaItem[] = [];
  items.forEach((raw, m) => {
    const item = mediaItem(raw);
    if (item) out.push(item);
    else errors.push({ path: `${path}[${m}]`, code: 'invalid_media', message: 'Give a media key or a URL' });
  });
  return out;
}

const asList = <T>(value: T | T[] | null | undefined): T[] =>
  value == null ? [] : Array.isArray(value) ? value : [value];

/** `overrides` and `thread` as the JSON of a post request (a JSON row, or a CSV cell) give them. */
function composerFields(
  value: { overrides?: unknown; thread?: unknown },
  errors: ProblemIssue[],
): Pick<ImportRowInput, 'overrides' | 'thread'> {
  const parsed = ImportComposerFields.safeParse(value);
  if (!parsed.success) {
    errors.push(...zodIssues(parsed.error));
    return { overrides: {}, thread: [] };
  }
  const overrides: ImportRowInput['overrides'] = {};
  for (const [ref, o] of Object.entries(parsed.data.overrides ?? {})) {
    overrides[ref] = {
      ...(o.message !== undefined ? { message: o.message } : {}),
      ...(o.media !== undefined
        ? { media: mediaItems(asList(o.media), `overrides.${ref}.media`, errors) }
        : {}),
    };
  }
  const thread = (parsed.data.thread ?? []).map((part, i) => ({
    message: part.message,
    media: mediaItems(asList(part.media), `thread[${i}].media`, errors),
  }));
  return { overrides, thread };
}

/** A row's `recycle` as `POST /api/v1/posts` reads it (ranges, `until` in the future); errors at `recycle.…`. */
function recycleOf(value: unknown, errors: ProblemIssue[]): RecycleSettings | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    return parseRecycle({ recycle: value }) ?? undefined;
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const { code, detail, errors: issues } = error.problem;
    errors.push(...(issues?.length ? issues : [{ path: 'recycle', code, message: detail ?? code }]));
    return undefined;
  }
}

/** A CSV cell holding JSON; an error at `column` when it does not parse. */
function jsonCell(cell: string | undefined, column: string, errors: ProblemIssue[]): unknown {
  const text = cell?.trim();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    errors.push({ path: column, code: 'invalid_json', message: `${column} must be JSON` });
    return undefined;
  }
}

/**
 * Alt texts of a CSV row's media, by position: the `altText` cell is a JSON array (an export writes
 * one; `null` or `""` for none) or, for a row with one medium, plain text; `altText.<n>` (1-based)
 * columns set one each.
 */
function csvAltTexts(record: Record<string, string>, errors: ProblemIssue[]): (string | undefined)[] {
  const texts: (string | undefined)[] = [];
  const cell = record.altText?.trim();
  if (cell) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(cell);
    } catch {
      parsed = cell;
    }
    if (Array.isArray(parsed)) {
      parsed.forEach((t, i) => {
        if (typeof t === 'string' && t !== '') texts[i] = t;
        else if (t != null && t !== '')
          errors.push({ path: `altText[${i}]`, code: 'invalid_alt_text', message: 'Alt text is a string' });
      });
    } else texts[0] = typeof parsed === 'string' ? parsed : cell;
  }
  for (const [column, value] of Object.entries(record)) {
    const match = /^altText\.(\d+)$/.exec(column);
    if (match && value !== '') texts[Number(match[1]) - 1] = value;
  }
  return texts;
}

/** `thread.<n>` columns (1-based): the text of each part, for files written by hand. */
function csvThreadColumns(record: Record<string, string>): { message: string; media: ImportMediaItem[] }[] {
  const parts: [number, string][] = [];
  for (const [column, value] of Object.entries(record)) {
    const match = /^thread\.(\d+)$/.exec(column);
    if (match && value.trim() !== '') parts.push([Number(match[1]), value]);
  }
  return parts.sort((a, b) => a[0] - b[0]).map(([, message]) => ({ message, media: [] }));
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
      // An export's neutralised formula cells (`'=…`) read back as they were written.
      cast: (value, context) => (context.header ? value : restoreCsvCell(value)),
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
    const altTexts = csvAltTexts(record, errors);
    const media: ImportMediaItem[] = splitList(record.media).map((url, m) =>
      altTexts[m] ? { url, altText: altTexts[m] } : { url },
    );
    if (altTexts.length > media.length)
      errors.push({
        path: 'altText',
        code: 'alt_text_without_media',
        message: `${altTexts.length} alt texts for ${media.length} media`,
      });
    const composer = composerFields(
      {
        overrides: jsonCell(record.overrides, 'overrides', errors),
        thread: jsonCell(record.thread, 'thread', errors),
      },
      errors,
    );
    const recycle = recycleOf(jsonCell(record.recycle, 'recycle', errors), errors);
    const threadColumns = csvThreadColumns(record);
    if (threadColumns.length && composer.thread.length)
      errors.push({
        path: 'thread',
        code: 'thread_twice',
        message: 'Give the thread either as the `thread` JSON column or as `thread.<n>` columns',
      });
    if (threadColumns.length) composer.thread = threadColumns;
    if (media.length > maxMediaPerRow)
      errors.push({
        path: 'media',
        code: 'too_many_media',
        message: `At most ${maxMediaPerRow} media per row`,
      });
    return {
      index: i + 1,
      message: record.message ?? '',
      // `accountIds`, the post request's own name for the field, is read as `accounts` too.
      accountRefs: splitList(record.accounts || record.accountIds),
      scheduledAt: record.scheduledAt?.trim() || undefined,
      postingMode: record.postingMode?.trim() || undefined,
      media,
      options,
      ...composer,
      recycle,
      errors,
    };
  });
}

/**
 * A JSON array of post requests (an export in JSON reads back as one). `rowErrors`: errors found
 * before parsing (an unknown `templateId`), by array position.
 */
export function parseJsonImport(
  value: unknown,
  rowErrors = new Map<number, ProblemIssue[]>(),
): ImportRowInput[] {
  const array = ImportJsonBody.safeParse(value);
  if (!array.success)
    throw new ProblemError(problem('invalid_request', 'A JSON import is an array of post requests'));
  if (array.data.length > maxImportRows) throw tooMany(array.data.length);
  if (array.data.length === 0) throw new ProblemError(problem('invalid_request', 'The file has no rows'));
  return array.data.map((element, i) => {
    const earlier = rowErrors.get(i) ?? [];
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
        overrides: {},
        thread: [],
        recycle: undefined,
        errors: [...earlier, ...zodIssues(parsed.error)],
      };
    }
    const row = parsed.data;
    const errors: ProblemIssue[] = [...earlier];
    const media = mediaItems(asList(row.media), 'media', errors);
    const composer = composerFields(row, errors);
    return {
      index: i + 1,
      message: row.message,
      accountRefs: row.accountIds,
      scheduledAt: row.scheduledAt ?? undefined,
      postingMode: row.postingMode,
      media,
      options: row.accountOptions ?? {},
      ...composer,
      // The raw value: `until` is checked (a date in the future) as POST /api/v1/posts does.
      recycle: recycleOf((element as { recycle?: unknown }).recycle, errors),
      errors,
    };
  });
}
