'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, useState } from 'react';
import { useTimeSettings } from '#components/lib/time-context.tsx';
import { ScrollRegion } from '#components/scroll-region.tsx';
import { PlatformMark } from '../account-avatar.tsx';
import { ConfirmButton } from '../confirm-button.tsx';
import { EmptyState } from '../empty-state.tsx';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, describeError, fieldProblems } from '../lib/api.ts';
import { formatDateTime } from '../lib/time.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';
import { type FeedAccount, type FeedField, type FeedRow, feedFields, statusText } from './feed-shapes.ts';

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
  const [formError, setFormError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FeedField, string>>>({});
  const [busy, setBusy] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const accountName = new Map(accounts.map((a) => [a.id, a]));

  /** Each error under its field; the first marked field takes the focus. */
  const showFieldErrors = (errors: Partial<Record<FeedField, string>>, summary?: string) => {
    setFieldErrors(errors);
    setFormError(summary);
    const first = feedFields.find(([field]) => errors[field]);
    if (first) focusAfterRender(first[1]);
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    const missing: Partial<Record<FeedField, string>> = {
      ...(/^https?:\/\/./i.test(url.trim()) ? {} : { url: 'Enter the feed’s http or https URL.' }),
      ...(chosen.length === 0 ? { accountIds: 'Choose at least one account to post to.' } : {}),
    };
    if (missing.url || missing.accountIds) return showFieldErrors(missing);
    setBusy(true);
    setError(undefined);
    setFormError(undefined);
    setFieldErrors({});
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
      const problems = fieldProblems(e, {
        url: 'Enter the feed’s http or https URL (this one cannot be used).',
        name: 'Keep the name under 200 characters.',
        accountIds: 'Choose accounts of this workspace to post to.',
        template: (issue) => `Check the template: ${issue.message}`,
      });
      showFieldErrors(problems.fields, problems.summary);
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
            {...invalidProps('feed-url-error', fieldErrors.url)}
          />
          <FieldError id="feed-url-error">{fieldErrors.url}</FieldError>
        </div>
        <div className="field">
          <label htmlFor="feed-name">Name (optional)</label>
          <input
            id="feed-name"
            className="input"
            value={name}
            maxLength={200}
            onChange={(e) => setName(e.target.value)}
            {...invalidProps('feed-name-error', fieldErrors.name)}
          />
          <FieldError id="feed-name-error">{fieldErrors.name}</FieldError>
        </div>
        <fieldset
          className="field"
          style={{ border: 0, padding: 0, margin: 0 }}
          aria-describedby={fieldErrors.accountIds ? 'feed-accounts-error' : undefined}
        >
          <legend className="label">Post to</legend>
          {accounts.length === 0 && <p className="muted">Connect an account first.</p>}
          {accounts.map((a, i) => (
            <label key={a.id} className="checkbox">
              <input
                id={`feed-account-${i}`}
                type="checkbox"
                {...invalidProps('feed-accounts-error', fieldErrors.accountIds)}
                checked={chosen.includes(a.id)}
                onChange={(e) =>
                  setChosen(e.target.checked ? [...chosen, a.id] : chosen.filter((id) => id !== a.id))
                }
              />
              <PlatformMark platform={a.platform} /> {a.name}
            </label>
          ))}
          <FieldError id="feed-accounts-error">{fieldErrors.accountIds}</FieldError>
        </fieldset>
        <div className="field">
          <label htmlFor="feed-template">Post template</label>
          <textarea
            id="feed-template"
            className="textarea"
            rows={3}
            value={template}
            onChange={(e) => setTemplate(e.target.value)}
            {...invalidProps('feed-template-error', fieldErrors.template, 'feed-template-hint')}
          />
          <p className="hint" id="feed-template-hint">
            <code>{'{{title}}'}</code>, <code>{'{{link}}'}</code> and <code>{'{{summary}}'}</code> are
            replaced by each new item’s.
          </p>
          <FieldError id="feed-template-error">{fieldErrors.template}</FieldError>
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
        {formError && (
          <p className="alert alert-error" role="alert">
            {formError}
          </p>
        )}
        <div className="row">
          <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
            {busy ? 'Adding…' : 'Add feed'}
          </button>
        </div>
      </form>
    </div>
  );
}
