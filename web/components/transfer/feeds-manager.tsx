'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { ScrollRegion } from '#components/analytics/scroll-region.tsx';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { PlatformMark } from '../account-avatar.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { api, describeError } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';

export interface FeedRow {
  id: string;
  url: string;
  name: string | null;
  accountIds: string[];
  template: string;
  mode: 'draft' | 'now' | 'queue';
  intervalMinutes: number;
  enabled: boolean;
  lastPolledAt: string | null;
  lastStatus: string | null;
  lastError: string | null;
}

export interface FeedAccount {
  id: string;
  platform: string;
  name: string;
}

const statusText: Record<string, string> = {
  primed: 'Watching (existing items skipped)',
  updated: 'Checked',
  not_modified: 'No change',
  failed: 'Failed',
};

export function FeedsManager({
  feeds,
  accounts,
  timezone,
}: {
  feeds: FeedRow[];
  accounts: FeedAccount[];
  timezone: string;
}) {
  const { locale } = useTimeSettings();
  const router = useRouter();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [template, setTemplate] = useState('{{title}}\n\n{{link}}');
  const [mode, setMode] = useState<'draft' | 'now' | 'queue'>('draft');
  const [pollEvery, setPollEvery] = useState('30');
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const [busy, setBusy] = useState(false);
  const accountName = new Map(accounts.map((a) => [a.id, a]));

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^https?:\/\/./i.test(url.trim())) return setError('Enter the feed’s http or https URL.');
    if (chosen.length === 0) return setError('Choose at least one account to post to.');
    setBusy(true);
    setError(undefined);
    try {
      const feed = await api<FeedRow>('POST', '/api/v1/feeds', {
        url: url.trim(),
        ...(name.trim() ? { name: name.trim() } : {}),
        accountIds: chosen,
        template,
        mode,
        intervalMinutes: Number(pollEvery),
      });
      setNotice(
        feed.lastStatus === 'failed'
          ? { text: `Feed added, but it could not be read yet: ${feed.lastError}`, ok: false }
          : { text: 'Feed added. Items already in it are skipped; new ones become posts.', ok: true },
      );
      setUrl('');
      setName('');
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  };

  const act = async (run: () => Promise<string>) => {
    setError(undefined);
    try {
      setNotice({ text: await run(), ok: true });
      router.refresh();
    } catch (e) {
      setError(describeError(e));
    }
  };

  return (
    <div className="stack">
      <div role="status" aria-live="polite">
        {notice && <p className={`alert ${notice.ok ? 'alert-ok' : 'alert-warn'}`}>{notice.text}</p>}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {feeds.length === 0 ? (
        <EmptyState icon="feed" title="No feeds">
          Add a blog’s RSS or Atom feed and every new article becomes a post to the accounts you choose.
        </EmptyState>
      ) : (
        // Its columns are wider than a phone: the table scrolls inside its region, not the page.
        <ScrollRegion className="table-scroll" label="Your feeds, scrolls sideways">
          <table className="table">
            <caption className="sr-only">Your feeds</caption>
            <thead>
              <tr>
                <th scope="col">Feed</th>
                <th scope="col">Accounts</th>
                <th scope="col">Mode</th>
                <th scope="col">Last check</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {feeds.map((f) => (
                <tr key={f.id}>
                  <td>
                    <div className="cell-title">{f.name ?? f.url}</div>
                    {f.name && <div className="cell-sub mono">{f.url}</div>}
                  </td>
                  <td>{f.accountIds.map((id) => accountName.get(id)?.name ?? id).join(', ')}</td>
                  <td>
                    {f.mode === 'now' ? 'Publish now' : f.mode === 'queue' ? 'Queue' : 'Drafts'}
                    {!f.enabled && <span className="badge">Paused</span>}
                  </td>
                  <td>
                    {f.lastPolledAt ? (
                      formatDateTime(f.lastPolledAt, timezone, locale)
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                    {f.lastStatus && (
                      <div className="cell-sub">{statusText[f.lastStatus] ?? f.lastStatus}</div>
                    )}
                    {f.lastError && <div className="cell-sub field-error">{f.lastError}</div>}
                  </td>
                  <td style={{ textAlign: 'right' }}>
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      onClick={() =>
                        act(async () => {
                          const r = await api<{ status: string; newItems: number; postIds: string[] }>(
                            'POST',
                            `/api/v1/feeds/${f.id}/poll`,
                          );
                          return `${f.name ?? f.url}: ${statusText[r.status] ?? r.status}, ${r.postIds.length} new post${r.postIds.length === 1 ? '' : 's'}.`;
                        })
                      }
                    >
                      Check now<span className="sr-only"> {f.name ?? f.url}</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      onClick={() =>
                        act(async () => {
                          await api('PATCH', `/api/v1/feeds/${f.id}`, { enabled: !f.enabled });
                          return `${f.name ?? f.url} ${f.enabled ? 'paused' : 'resumed'}.`;
                        })
                      }
                    >
                      {f.enabled ? 'Pause' : 'Resume'}
                      <span className="sr-only"> {f.name ?? f.url}</span>
                    </button>
                    <ConfirmButton
                      label="Delete"
                      className="btn btn-sm btn-ghost"
                      title={`Delete “${f.name ?? f.url}”?`}
                      body="The feed stops being checked. Posts it already created stay."
                      confirmLabel="Delete"
                      onConfirm={async () => {
                        await api('DELETE', `/api/v1/feeds/${f.id}`);
                        router.refresh();
                      }}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <form onSubmit={add} className="stack" noValidate aria-labelledby="add-feed-title">
        <h2 id="add-feed-title" className="section-title">
          Add a feed
        </h2>
        <div className="field">
          <label htmlFor="feed-url">Feed URL</label>
          <input
            id="feed-url"
            type="url"
            className="input"
            value={url}
            placeholder="https://blog.example.com/feed.xml"
            onChange={(e) => setUrl(e.target.value)}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="feed-name">Name (optional)</label>
          <input
            id="feed-name"
            className="input"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">Post to</legend>
          {accounts.length === 0 && <p className="muted">Connect an account first.</p>}
          {accounts.map((a) => (
            <label key={a.id} className="checkbox">
              <input
                type="checkbox"
                checked={chosen.includes(a.id)}
                onChange={(e) =>
                  setChosen(e.target.checked ? [...chosen, a.id] : chosen.filter((id) => id !== a.id))
                }
              />
              <PlatformMark platform={a.platform} /> {a.name}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="feed-template">Post template</label>
          <textarea
            id="feed-template"
            className="textarea"
            rows={3}
            value={template}
            onChange={(e) => setTemplate(e.target.value)}
            aria-describedby="feed-template-hint"
          />
          <p className="hint" id="feed-template-hint">
            <code>{'{{title}}'}</code>, <code>{'{{link}}'}</code> and <code>{'{{summary}}'}</code> are
            replaced by each new item’s.
          </p>
        </div>
        <fieldset className="field" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="label">New items become</legend>
          <label className="checkbox">
            <input
              type="radio"
              name="feed-mode"
              checked={mode === 'draft'}
              onChange={() => setMode('draft')}
            />
            Drafts to review
          </label>
          <label className="checkbox">
            <input type="radio" name="feed-mode" checked={mode === 'now'} onChange={() => setMode('now')} />
            Posts published right away
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="feed-mode"
              checked={mode === 'queue'}
              onChange={() => setMode('queue')}
            />
            Posts in the next free queue slot
          </label>
        </fieldset>
        <div className="field">
          <label htmlFor="feed-interval">Check every</label>
          <select
            id="feed-interval"
            className="input"
            value={pollEvery}
            onChange={(e) => setPollEvery(e.target.value)}
          >
            <option value="15">15 minutes</option>
            <option value="30">30 minutes</option>
            <option value="60">hour</option>
            <option value="360">6 hours</option>
            <option value="1440">day</option>
          </select>
        </div>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add feed'}
          </button>
        </div>
      </form>
    </div>
  );
}
