'use client';

import Link from 'next/link';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, describeError, type ProblemIssue } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

interface RowReport {
  index: number;
  valid: boolean;
  errors: ProblemIssue[];
  postId?: string;
}
interface Report {
  rows: RowReport[];
  timeBudgetExceeded?: boolean;
  committed: boolean;
}

/** `.json` files (or ones that start with `[`) are JSON imports; everything else CSV. */
function contentTypeOf(file: File, text: string): string {
  if (/\.json$/i.test(file.name) || file.type === 'application/json') return 'application/json';
  if (/\.csv$/i.test(file.name)) return 'text/csv';
  return text.trimStart().startsWith('[') ? 'application/json' : 'text/csv';
}

async function sendImport(file: File, dryRun: boolean): Promise<Report> {
  const text = await file.text();
  let response: Response;
  try {
    response = await fetch(`/api/v1/posts/import?dryRun=${dryRun}`, {
      method: 'POST',
      headers: { 'content-type': contentTypeOf(file, text) },
      // The file's own bytes: the server refuses a file that is not UTF-8 and says where, which
      // file.text() would hide by turning bad bytes into U+FFFD (docs/import-export.md#encoding).
      body: file,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, { detail: 'Could not reach Postwave. Check your connection and try again.' });
  }
  const body = await response.json().catch(() => ({ detail: `Unexpected answer (${response.status})` }));
  if (!response.ok) throw new ApiError(response.status, body);
  return body as Report;
}

const describeIssue = (e: ProblemIssue) =>
  `${e.path ? `${e.path}: ` : ''}${e.message}${e.code ? ` (${e.code})` : ''}`;

/**
 * Upload → dry run → a row-by-row report → "Import N posts" (all or nothing). The summary is a
 * live region so a screen reader hears the outcome of each step.
 */
export function ImportForm() {
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<Report>();
  const [checkedFile, setCheckedFile] = useState<File>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'check' | 'import'>();
  const focusAfterRender = useFocusAfterRender();

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError('Choose a CSV or JSON file first.');
      input.current?.focus();
      return;
    }
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    setBusy('check');
    setError(undefined);
    setReport(undefined);
    try {
      setReport(await sendImport(file, true));
      setCheckedFile(file);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(undefined);
    }
  };

  const commit = async () => {
    if (!checkedFile || busy) return;
    setBusy('import');
    setError(undefined);
    try {
      setReport(await sendImport(checkedFile, false));
      // The Import button goes once the posts exist: the outcome takes the focus it had.
      focusAfterRender('import-summary');
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(undefined);
    }
  };

  const invalid = report?.rows.filter((r) => !r.valid).length ?? 0;
  const total = report?.rows.length ?? 0;
  const summary = !report
    ? ''
    : report.committed
      ? `Imported ${total} post${total === 1 ? '' : 's'}.`
      : report.timeBudgetExceeded
        ? `The check ran out of time before every row was done (${invalid} of ${total} rows are not valid or not reached). Nothing was imported. Media fetched so far are kept: check the file again to continue.`
        : invalid
          ? `${invalid} of ${total} rows have errors. Nothing was imported: fix them and check the file again.`
          : `All ${total} rows are valid.`;

  return (
    <div className="stack">
      <form onSubmit={check} className="row" style={{ alignItems: 'flex-end' }} noValidate>
        <div className="field" style={{ flex: 1, minWidth: 240 }}>
          <label htmlFor="import-file">CSV or JSON file</label>
          <input
            ref={input}
            id="import-file"
            type="file"
            className="input"
            accept=".csv,.json,text/csv,application/json"
            aria-describedby="import-file-hint"
            aria-invalid={error && !file ? true : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0]);
              setReport(undefined);
              setCheckedFile(undefined);
              setError(undefined);
            }}
          />
          <p className="hint" id="import-file-hint">
            Columns: <code>message</code>, <code>accounts</code> (ids or handles such as <code>@news</code>,
            separated by <code>|</code>), <code>scheduledAt</code> (with offset), <code>media</code> (URLs),{' '}
            <code>options.&lt;account&gt;.&lt;option&gt;</code>. Up to 1000 rows.
          </p>
        </div>
        <button type="submit" className="btn" aria-disabled={busy !== undefined || undefined}>
          {busy === 'check' ? 'Checking…' : 'Check file'}
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div
        id="import-summary"
        tabIndex={-1}
        role="status"
        aria-live="polite"
        className={
          summary ? `alert ${report?.committed || !invalid ? 'alert-ok' : 'alert-error'}` : undefined
        }
      >
        {summary}
        {report?.committed && (
          <>
            {' '}
            <Link href="/posts?status=scheduled">See scheduled posts</Link> ·{' '}
            <Link href="/posts?status=draft">See drafts</Link>
          </>
        )}
      </div>
      {report && (
        <table className="table" data-testid="import-report">
          <caption className="sr-only">Import report, one line per row of the file</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Status</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.map((row) => (
              <tr key={row.index} data-valid={row.valid}>
                <th scope="row">{row.index}</th>
                <td>
                  <span className={`badge ${row.valid ? 'badge-ok' : 'badge-failed'}`}>
                    {row.postId ? 'Imported' : row.valid ? 'Valid' : 'Error'}
                  </span>
                </td>
                <td>
                  {row.errors.length ? (
                    <ul className="issues">
                      {row.errors.map((e, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: a row's issues never reorder
                        <li key={i}>{describeIssue(e)}</li>
                      ))}
                    </ul>
                  ) : row.postId ? (
                    <Link href={`/posts/${row.postId}`}>
                      Open post<span className="sr-only"> from row {row.index}</span>
                    </Link>
                  ) : (
                    <span className="muted">Ready</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {report && !report.committed && invalid === 0 && (
        <div className="row">
          <button
            type="button"
            className="btn btn-primary"
            onClick={commit}
            aria-disabled={busy !== undefined || undefined}
          >
            {busy === 'import' ? 'Importing…' : `Import ${total} post${total === 1 ? '' : 's'}`}
          </button>
        </div>
      )}
    </div>
  );
}
