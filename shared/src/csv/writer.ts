/**
 * The one CSV writer: every CSV the services write (the Scheduler's posts export, and any later
 * one) goes through it, so quoting and spreadsheet safety are decided once (docs/import-export.md#csv-safety).
 *
 * - RFC 4180: a field holding a comma, a double quote, a carriage return or a line feed is quoted,
 *   its quotes doubled; records end with CRLF. A bare LF counts as a line break: readers that split
 *   on it would otherwise see a forged row.
 * - Formula cells (OWASP "CSV injection"): a spreadsheet runs a cell starting with `=`, `+`, `-`,
 *   `@`, tab or carriage return as a formula (`=HYPERLINK(…)` from a feed title or an imported
 *   message). Such a cell is written with a leading `'`, which spreadsheets show as text. So that
 *   the rule can be undone exactly (`restoreCsvCell`), a cell that already starts with quotes
 *   followed by one of those characters gets one more quote too.
 */

/** Cells a spreadsheet would evaluate, and cells that merely look like our neutralised ones. */
const formulaLike = /^'*[=+\-@\t\r]/;
/** What `neutraliseCsvFormula` produced: at least one quote, then a formula character. */
const neutralised = /^'+[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

/** The cell as written before quoting: a leading `'` when a spreadsheet would run it. */
export function neutraliseCsvFormula(value: string): string {
  return formulaLike.test(value) ? `'${value}` : value;
}

/** The reader's inverse of `neutraliseCsvFormula`: one leading `'` removed from a neutralised cell. */
export function restoreCsvCell(cell: string): string {
  return neutralised.test(cell) ? cell.slice(1) : cell;
}

/** One field, neutralised and quoted when it must be. */
export function csvField(value: string): string {
  const safe = neutraliseCsvFormula(value);
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One record, CRLF-terminated. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** Records (and a header row first when given) as one CSV text. */
export function formatCsv(rows: readonly (readonly string[])[], header?: readonly string[]): string {
  return (header ? csvRecord(header) : '') + rows.map(csvRecord).join('');
}
