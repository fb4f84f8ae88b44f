import type { Metadata } from 'next';
import { ExportForm } from '../../../../components/transfer/export-form.tsx';
import { ImportForm } from '../../../../components/transfer/import-form.tsx';
import { postStatuses } from '../../../../server/db/schema.ts';
import { requireUser } from '../../../../server/ui/session.ts';

export const metadata: Metadata = { title: 'Import and export' };

export default async function ImportPage() {
  await requireUser();
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Import and export</h1>
          <p>Create many posts from a file, or download your posts with their results.</p>
        </div>
      </div>
      <section className="card" aria-labelledby="import-title">
        <div className="card-head">
          <h2 id="import-title">Import posts</h2>
        </div>
        <div className="card-body stack">
          <p className="muted">
            Start from the{' '}
            <a href="/api/v1/posts/import/template" download data-testid="import-template">
              CSV template
            </a>{' '}
            (your accounts and times tomorrow filled in): edit it in a spreadsheet, save as CSV, then check it
            here. Every column is described in the <a href="/docs#tag/imports">API reference</a>.
          </p>
          <ImportForm />
        </div>
      </section>
      <section className="card" aria-labelledby="export-title">
        <div className="card-head">
          <h2 id="export-title">Export posts</h2>
        </div>
        <div className="card-body stack">
          <p className="muted">
            Every post with its per-account results. An export can be imported again: scheduled posts come
            back scheduled, the others as drafts.
          </p>
          <ExportForm statuses={postStatuses} />
        </div>
      </section>
    </div>
  );
}
