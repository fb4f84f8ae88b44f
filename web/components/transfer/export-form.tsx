import { statusLabel } from '../posts/status.tsx';

/**
 * A plain GET form: the browser downloads the streamed export with the session cookie, so it
 * works without JavaScript too.
 */
export function ExportForm({ statuses }: { statuses: readonly string[] }) {
  return (
    <form method="get" action="/api/v1/posts/export" className="row" style={{ alignItems: 'flex-end' }}>
      <div className="field">
        <label htmlFor="export-format">Format</label>
        <select id="export-format" name="format" className="input" defaultValue="csv">
          <option value="csv">CSV</option>
          <option value="json">JSON</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="export-status">Status</label>
        <select id="export-status" name="status" className="input" defaultValue="">
          <option value="">All</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {statusLabel(s)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="export-from">From (UTC)</label>
        <input id="export-from" name="from" type="date" className="input" />
      </div>
      <div className="field">
        <label htmlFor="export-to">Until, not including (UTC)</label>
        <input id="export-to" name="to" type="date" className="input" />
      </div>
      <button type="submit" className="btn">
        Download export
      </button>
    </form>
  );
}
