'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { type DragEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AccountAvatar } from '../account-avatar.tsx';
import { ApiError, api, describeError, type ProblemIssue } from '../lib/api.ts';
import { type AccountSummary, accountHandle, accountName, countFor, platformMeta } from '../lib/platforms.ts';
import { utcToZonedInput, zonedToUtc } from '../lib/time.ts';
import { type MediaObject, uploadFile } from './upload.ts';

type Options = Record<string, Record<string, unknown>>;

export interface EditablePost {
  id: string;
  status: 'draft' | 'scheduled' | 'posted' | 'failed';
  message: string;
  accountIds: string[];
  media: MediaObject[];
  accountOptions: Options;
  scheduledAt: string | null;
}

interface MediaItem {
  localId: string;
  filename: string;
  contentType: string;
  preview?: string;
  progress: number;
  media?: MediaObject;
  error?: string;
  abort?: AbortController;
}

interface Issue {
  code: string;
  message: string;
  path?: string;
}

interface ValidationResult {
  accountId: string;
  valid: boolean;
  errors: Issue[];
  warnings: Issue[];
}

let counter = 0;
const nextId = () => `m${++counter}`;

function fromStored(m: MediaObject): MediaItem {
  return {
    localId: nextId(),
    filename: m.filename,
    contentType: m.contentType,
    preview: m.url,
    progress: 1,
    media: m,
  };
}

export function Composer({
  accounts,
  timezone,
  post,
}: {
  accounts: AccountSummary[];
  timezone: string;
  post?: EditablePost;
}) {
  const router = useRouter();
  const [message, setMessage] = useState(post?.message ?? '');
  const [selected, setSelected] = useState<string[]>(() =>
    post
      ? post.accountIds.filter((id) => accounts.some((a) => a.id === id))
      : accounts.length === 1
        ? [accounts[0]!.id]
        : [],
  );
  const [media, setMedia] = useState<MediaItem[]>(() => (post?.media ?? []).map(fromStored));
  const [options, setOptions] = useState<Options>(post?.accountOptions ?? {});
  const [scheduleAt, setScheduleAt] = useState(() =>
    post?.scheduledAt ? utcToZonedInput(new Date(post.scheduledAt), timezone) : '',
  );
  const [showSchedule, setShowSchedule] = useState(Boolean(post?.scheduledAt));
  const [results, setResults] = useState<Record<string, ValidationResult>>({});
  const [generalIssues, setGeneralIssues] = useState<string[]>([]);
  const [validating, setValidating] = useState(false);
  const [busy, setBusy] = useState<'now' | 'schedule' | 'draft'>();
  const [error, setError] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const selectedAccounts = useMemo(
    () => accounts.filter((a) => selected.includes(a.id)),
    [accounts, selected],
  );
  const uploaded = media.filter((m) => m.media).map((m) => m.media!);
  const uploading = media.some((m) => !m.media && !m.error);
  const hasMedia = uploaded.length > 0;

  const body = useMemo(() => {
    const accountOptions: Options = {};
    for (const id of selected) {
      const o = options[id];
      if (o && Object.keys(o).length) accountOptions[id] = o;
    }
    return { message, accountIds: selected, media: uploaded, accountOptions };
  }, [message, selected, uploaded, options]);
  const bodyKey = JSON.stringify(body);

  // Live validation, debounced.
  useEffect(() => {
    if (selected.length === 0) {
      setResults({});
      setGeneralIssues([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setValidating(true);
      try {
        const response = await fetch('/api/v1/validation', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodyKey,
          signal: controller.signal,
        });
        const json = (await response.json()) as {
          results?: ValidationResult[];
          detail?: string;
          errors?: ProblemIssue[];
        };
        if (response.ok && json.results) {
          setResults(Object.fromEntries(json.results.map((r) => [r.accountId, r])));
          setGeneralIssues([]);
        } else {
          setGeneralIssues([json.detail ?? 'The post could not be checked.']);
        }
      } catch (e) {
        if ((e as Error).name !== 'AbortError')
          setGeneralIssues(['The post could not be checked right now.']);
      } finally {
        if (!controller.signal.aborted) setValidating(false);
      }
    }, 450);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [bodyKey, selected.length]);

  const counts = selectedAccounts.map((account) => ({
    account,
    count: countFor(account.platform, message, {
      hasMedia,
      parseMode: options[account.id]?.parseMode as string | undefined,
    }),
  }));
  const overLimit = counts.some((c) => c.count && c.count.used > c.count.limit);
  const invalid = selected.some((id) => results[id] && !results[id]!.valid) || overLimit;
  const empty = message.trim() === '' && uploaded.length === 0;

  const addFiles = useCallback((files: FileList | File[]) => {
    for (const file of Array.from(files)) {
      const localId = nextId();
      const abort = new AbortController();
      const preview =
        file.type.startsWith('image/') || file.type.startsWith('video/')
          ? URL.createObjectURL(file)
          : undefined;
      setMedia((list) => [
        ...list,
        { localId, filename: file.name, contentType: file.type, preview, progress: 0, abort },
      ]);
      const update = (patch: Partial<MediaItem>) =>
        setMedia((list) => list.map((m) => (m.localId === localId ? { ...m, ...patch } : m)));
      uploadFile(file, (progress) => update({ progress }), abort.signal).then(
        (stored) => update({ media: stored, progress: 1 }),
        (e: Error) => {
          if (e.name !== 'AbortError') update({ error: e.message });
        },
      );
    }
  }, []);

  const removeMedia = (item: MediaItem) => {
    item.abort?.abort();
    if (item.preview?.startsWith('blob:')) URL.revokeObjectURL(item.preview);
    setMedia((list) => list.filter((m) => m.localId !== item.localId));
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) addFiles(event.dataTransfer.files);
  };

  const setOption = (accountId: string, key: string, value: unknown) =>
    setOptions((all) => {
      const current = { ...(all[accountId] ?? {}) };
      if (value === undefined || value === '') delete current[key];
      else current[key] = value;
      return { ...all, [accountId]: current };
    });

  const applyProblem = (e: unknown) => {
    if (e instanceof ApiError && e.errors.length) {
      const byAccount: Record<string, ValidationResult> = { ...results };
      const general: string[] = [];
      for (const issue of e.errors) {
        if (issue.accountId) {
          const r = byAccount[issue.accountId] ?? {
            accountId: issue.accountId,
            valid: false,
            errors: [],
            warnings: [],
          };
          byAccount[issue.accountId] = { ...r, valid: false, errors: [...r.errors, issue] };
        } else general.push(issue.message);
      }
      setResults(byAccount);
      setGeneralIssues(general);
    }
    setError(describeError(e));
  };

  const submit = async (mode: 'now' | 'schedule' | 'draft') => {
    setError(undefined);
    let scheduledAt: string | undefined;
    if (mode === 'schedule') {
      const when = zonedToUtc(scheduleAt, timezone);
      if (!when) {
        setError('Pick a date and time to schedule the post.');
        return;
      }
      if (when.getTime() < Date.now() - 30_000) {
        setError('That time has passed. Pick a time in the future.');
        return;
      }
      scheduledAt = when.toISOString();
    }
    setBusy(mode);
    try {
      let id: string;
      if (post) {
        await api('PATCH', `/api/v1/posts/${post.id}`, {
          message,
          ...(selected.length ? { accountIds: selected } : {}),
          media: uploaded,
          accountOptions: body.accountOptions,
        });
        if (!(mode === 'draft' && post.status === 'draft')) {
          await api('POST', `/api/v1/posts/${post.id}`, {
            postingMode: mode,
            ...(scheduledAt ? { scheduledAt } : {}),
          });
        }
        id = post.id;
      } else {
        const created = await api<{ id: string }>('POST', '/api/v1/posts', {
          ...body,
          postingMode: mode,
          ...(scheduledAt ? { scheduledAt } : {}),
        });
        id = created.id;
      }
      router.push(`/posts/${id}?done=${mode}`);
      router.refresh();
    } catch (e) {
      applyProblem(e);
      setBusy(undefined);
    }
  };

  if (accounts.length === 0) {
    return (
      <div className="card">
        <div className="empty">
          <span className="empty-icon" aria-hidden="true">
            ✎
          </span>
          <h2>Connect an account to start posting</h2>
          <p>
            Postwave publishes to the accounts you connect: Telegram, Bluesky, Mastodon, Discord or YouTube.
          </p>
          <Link href="/accounts" className="btn btn-primary">
            Connect an account
          </Link>
        </div>
      </div>
    );
  }

  const canPublish = selected.length > 0 && !empty && !invalid && !uploading && !busy;
  const blockReason =
    selected.length === 0
      ? 'Choose at least one account.'
      : empty
        ? 'Write a message or add media.'
        : uploading
          ? 'Waiting for uploads to finish…'
          : invalid
            ? 'Fix the problems shown beside the accounts.'
            : undefined;

  return (
    <div className="composer">
      <section className="card" aria-label="Post">
        <div className="card-body stack">
          <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0, gap: 10 }}>
            <legend className="section-title">Post to</legend>
            <div className="account-chips">
              {accounts.map((account) => {
                const on = selected.includes(account.id);
                return (
                  <button
                    type="button"
                    key={account.id}
                    className="account-chip"
                    aria-pressed={on}
                    onClick={() =>
                      setSelected((s) => (on ? s.filter((x) => x !== account.id) : [...s, account.id]))
                    }
                  >
                    <AccountAvatar account={account} size="sm" />
                    {accountName(account)}
                  </button>
                );
              })}
            </div>
          </fieldset>

          <div className="field">
            <label htmlFor="message" className="section-title">
              Message
            </label>
            <textarea
              id="message"
              className="textarea"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              placeholder="What do you want to share?"
              rows={8}
              aria-describedby="counters"
            />
            <div className="counters" id="counters" aria-live="polite">
              {counts.map(({ account, count }) =>
                count ? (
                  <span
                    key={account.id}
                    className="counter"
                    data-testid={`counter-${account.id}`}
                    data-state={
                      count.used > count.limit ? 'over' : count.used > count.limit * 0.9 ? 'near' : 'ok'
                    }
                    title={`${platformMeta(account.platform).name} counts ${count.unit}`}
                  >
                    {platformMeta(account.platform).name} · {accountName(account)}:{' '}
                    <strong>
                      {count.used.toLocaleString()} / {count.limit.toLocaleString()}
                    </strong>
                  </span>
                ) : null,
              )}
            </div>
          </div>

          <div className="field">
            <span className="section-title" id="media-label">
              Media
            </span>
            <section
              className="dropzone"
              aria-labelledby="media-label"
              data-active={dragging}
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
            >
              <p>
                Drag images or videos here, or{' '}
                <button type="button" className="btn btn-sm" onClick={() => fileInput.current?.click()}>
                  choose files
                </button>
              </p>
              <input
                ref={fileInput}
                type="file"
                multiple
                accept="image/*,video/*"
                className="sr-only"
                aria-labelledby="media-label"
                data-testid="media-input"
                onChange={(e) => {
                  if (e.target.files) addFiles(e.target.files);
                  e.target.value = '';
                }}
              />
            </section>
            {media.length > 0 && (
              <ul className="media-grid list" aria-label="Attached media">
                {media.map((item) => (
                  <li
                    key={item.localId}
                    className="media-item"
                    data-testid="media-item"
                    data-uploaded={Boolean(item.media)}
                  >
                    {item.preview && item.contentType.startsWith('image/') ? (
                      // biome-ignore lint/performance/noImgElement: local blob previews
                      <img src={item.preview} alt={item.filename} />
                    ) : item.preview && item.contentType.startsWith('video/') ? (
                      <video src={item.preview} muted playsInline controls aria-label={item.filename} />
                    ) : (
                      <span className="media-file">{item.filename}</span>
                    )}
                    <button
                      type="button"
                      className="remove"
                      aria-label={`Remove ${item.filename}`}
                      onClick={() => removeMedia(item)}
                    >
                      ×
                    </button>
                    {!item.media && !item.error && (
                      <span className="progress">
                        <progress
                          max={1}
                          value={item.progress}
                          aria-label={`Uploading ${item.filename}: ${Math.round(item.progress * 100)}%`}
                        />
                      </span>
                    )}
                    {item.error && (
                      <span className="media-error" role="alert">
                        {item.error}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>

          {generalIssues.length > 0 && (
            <div className="alert alert-error" role="alert">
              {generalIssues.join(' ')}
            </div>
          )}
          {error && (
            <div className="alert alert-error" role="alert">
              {error}
            </div>
          )}
        </div>
        <div className="action-bar">
          {blockReason && (
            <span className="muted small" style={{ marginRight: 'auto' }}>
              {blockReason}
            </span>
          )}
          <button
            type="button"
            className="btn"
            onClick={() => submit('draft')}
            disabled={Boolean(busy) || uploading}
          >
            {busy === 'draft' ? 'Saving…' : 'Save draft'}
          </button>
          {showSchedule ? (
            <div className="schedule-box">
              <div className="field">
                <label htmlFor="schedule-at" className="small">
                  Date and time ({timezone})
                </label>
                <input
                  id="schedule-at"
                  type="datetime-local"
                  className="input"
                  value={scheduleAt}
                  min={utcToZonedInput(new Date(), timezone)}
                  onChange={(e) => setScheduleAt(e.target.value)}
                />
              </div>
              <button
                type="button"
                className="btn"
                onClick={() => submit('schedule')}
                disabled={!canPublish || !scheduleAt}
              >
                {busy === 'schedule' ? 'Scheduling…' : 'Schedule'}
              </button>
            </div>
          ) : (
            <button
              type="button"
              className="btn"
              onClick={() => {
                setShowSchedule(true);
                if (!scheduleAt)
                  setScheduleAt(utcToZonedInput(new Date(Date.now() + 60 * 60 * 1000), timezone));
              }}
            >
              Schedule…
            </button>
          )}
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => submit('now')}
            disabled={!canPublish}
          >
            {busy === 'now' ? 'Publishing…' : 'Publish now'}
          </button>
        </div>
      </section>

      <aside className="stack" aria-label="Accounts and checks">
        <div className="row">
          <h2 className="section-title">Checks</h2>
          {validating && <span className="muted small">Checking…</span>}
        </div>
        {selectedAccounts.length === 0 ? (
          <p className="muted small card card-body">
            Choose accounts to see how each platform sees this post.
          </p>
        ) : (
          <ul className="target-list list">
            {selectedAccounts.map((account) => (
              <TargetPanel
                key={account.id}
                account={account}
                result={results[account.id]}
                options={options[account.id] ?? {}}
                setOption={(key, value) => setOption(account.id, key, value)}
              />
            ))}
          </ul>
        )}
      </aside>
    </div>
  );
}

function TargetPanel({
  account,
  result,
  options,
  setOption,
}: {
  account: AccountSummary;
  result: ValidationResult | undefined;
  options: Record<string, unknown>;
  setOption: (key: string, value: unknown) => void;
}) {
  const invalid = result ? !result.valid : false;
  const [thumb, setThumb] = useState<{ progress: number; error?: string }>();
  return (
    <li
      className="target"
      data-invalid={invalid}
      data-testid={`target-${account.id}`}
      aria-label={`${accountName(account)} checks`}
    >
      <div className="target-head">
        <AccountAvatar account={account} size="sm" />
        <div className="meta">
          <strong>{accountName(account)}</strong>
          <span>
            {platformMeta(account.platform).name} · {accountHandle(account)}
          </span>
        </div>
        {result &&
          (result.valid ? (
            <span className="badge badge-ok">Ready</span>
          ) : (
            <span className="badge badge-danger">Fix</span>
          ))}
      </div>
      {account.status === 'needs_reconnect' && (
        <p className="field-error">
          This account needs to be reconnected. <Link href="/accounts">Reconnect it</Link>
        </p>
      )}
      {result && (result.errors.length > 0 || result.warnings.length > 0) && (
        <ul className="issues" role="alert">
          {result.errors.map((issue) => (
            <li key={`e-${issue.code}-${issue.path}-${issue.message}`} className="error">
              {issue.message}
            </li>
          ))}
          {result.warnings.map((issue) => (
            <li key={`w-${issue.code}-${issue.path}-${issue.message}`} className="warning">
              {issue.message}
            </li>
          ))}
        </ul>
      )}
      {account.platform === 'youtube' && (
        <div className="stack" style={{ gap: 10 }}>
          <div className="field">
            <label htmlFor={`yt-title-${account.id}`} className="small">
              Video title
            </label>
            <input
              id={`yt-title-${account.id}`}
              className="input"
              maxLength={150}
              placeholder="Defaults to the first line of the message"
              value={(options.title as string) ?? ''}
              onChange={(e) => setOption('title', e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`yt-privacy-${account.id}`} className="small">
              Visibility
            </label>
            <select
              id={`yt-privacy-${account.id}`}
              className="select"
              value={(options.privacyStatus as string) ?? ''}
              onChange={(e) => setOption('privacyStatus', e.target.value)}
            >
              <option value="">Default (public)</option>
              <option value="public">Public</option>
              <option value="unlisted">Unlisted</option>
              <option value="private">Private</option>
            </select>
          </div>
          <div className="field">
            <span className="small label">Custom thumbnail</span>
            {typeof options.thumbnailUrl === 'string' && (
              <div className="row">
                {/* biome-ignore lint/performance/noImgElement: uploaded thumbnail preview */}
                <img src={options.thumbnailUrl} alt="Thumbnail" style={{ width: 96, borderRadius: 6 }} />
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => setOption('thumbnailUrl', undefined)}
                >
                  Remove
                </button>
              </div>
            )}
            <input
              type="file"
              accept="image/jpeg,image/png"
              aria-label="Upload a custom thumbnail (JPEG or PNG, up to 2 MB)"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                setThumb({ progress: 0 });
                uploadFile(file, (progress) => setThumb({ progress }), new AbortController().signal).then(
                  (m) => {
                    setThumb(undefined);
                    setOption('thumbnailUrl', m.url);
                  },
                  (err: Error) => setThumb({ progress: 0, error: err.message }),
                );
              }}
            />
            {thumb && !thumb.error && (
              <progress max={1} value={thumb.progress} aria-label="Thumbnail upload" />
            )}
            {thumb?.error && <p className="field-error">{thumb.error}</p>}
          </div>
        </div>
      )}
    </li>
  );
}
