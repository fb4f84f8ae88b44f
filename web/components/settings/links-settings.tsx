'use client';

import { type FormEvent, useId, useState } from 'react';
import { FieldError, invalidProps } from '../field-error.tsx';
import { api, fieldProblems } from '../lib/api.ts';
import { useFocusAfterRender } from '../lib/use-focus-after-render.ts';

/** What `GET /api/v1/workspaces/{id}/links` answers (the key only as `hasApiKey`). */
export interface LinkSettingsValue {
  utm: { source?: string; medium?: string; campaign?: string } | null;
  shortener: {
    provider: 'shlink' | 'dub' | 'kutt';
    apiUrl: string;
    domain: string | null;
    hasApiKey: boolean;
  } | null;
}

const providers = [
  { id: '', label: 'No shortener' },
  { id: 'shlink', label: 'Shlink (your instance)' },
  { id: 'dub', label: 'Dub' },
  { id: 'kutt', label: 'Kutt' },
] as const;

/** The fields a refusal can name, in the order of the form (the first marked one takes the focus). */
const fields = [
  ['utm.source', 'utm-source'],
  ['utm.medium', 'utm-medium'],
  ['utm.campaign', 'utm-campaign'],
  ['shortener.apiUrl', 'url'],
  ['shortener.apiKey', 'key'],
  ['shortener.domain', 'domain'],
] as const;

const urlHint: Record<string, string> = {
  shlink: 'Your Shlink server, e.g. https://s.example.com',
  dub: 'Leave empty for https://api.dub.co, or your own Dub instance',
  kutt: 'Your Kutt instance, e.g. https://kutt.it',
};

/**
 * Tracked links (docs/links.md): UTM parameters and the URL shortener. The API key is write-only:
 * the field stays empty, and an empty field keeps the stored key.
 */
export function LinksSettings({ workspaceId, initial }: { workspaceId: string; initial: LinkSettingsValue }) {
  const id = useId();
  const [settings, setSettings] = useState(initial);
  const [utmOn, setUtmOn] = useState(initial.utm !== null);
  const [source, setSource] = useState(initial.utm?.source ?? '{platform}');
  const [medium, setMedium] = useState(initial.utm?.medium ?? 'social');
  const [campaign, setCampaign] = useState(initial.utm?.campaign ?? '');
  const [provider, setProvider] = useState<string>(initial.shortener?.provider ?? '');
  const [apiUrl, setApiUrl] = useState(initial.shortener?.apiUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [domain, setDomain] = useState(initial.shortener?.domain ?? '');
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const fieldProps = (path: string, field: string, ...hintIds: string[]) =>
    invalidProps(`${id}-${field}-error`, fieldErrors[path], ...hintIds);
  const fieldError = (path: string, field: string) => (
    <FieldError id={`${id}-${field}-error`}>{fieldErrors[path]}</FieldError>
  );

  const save = async (event: FormEvent) => {
    event.preventDefault();
    // aria-disabled while busy, not disabled: a disabled button drops the focus to <body>.
    if (busy) return;
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    setSaved('');
    try {
      const next = await api<LinkSettingsValue>('PUT', `/api/v1/workspaces/${workspaceId}/links`, {
        utm: utmOn ? { source: source.trim(), medium: medium.trim(), campaign: campaign.trim() } : null,
        shortener: provider
          ? {
              provider,
              ...(apiUrl.trim() ? { apiUrl: apiUrl.trim() } : {}),
              ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
              domain: domain.trim() || null,
            }
          : null,
      });
      setSettings(next);
      setApiKey('');
      if (next.shortener) setApiUrl(next.shortener.apiUrl);
      setSaved('Link settings saved.');
    } catch (e) {
      // Each refusal under its field, in the form's words; the first marked field takes the focus.
      const problems = fieldProblems(e, {
        'utm.source': 'Keep utm_source under 100 characters.',
        'utm.medium': 'Keep utm_medium under 100 characters.',
        'utm.campaign': 'Keep utm_campaign under 100 characters.',
        'shortener.apiUrl': (issue) =>
          issue.code === 'required'
            ? 'Give your instance’s address, e.g. https://s.example.com.'
            : issue.code === 'invalid_format' ||
                issue.code === 'invalid_string' ||
                issue.code === 'invalid_type'
              ? 'Give a full http(s) address, e.g. https://s.example.com.'
              : `This address cannot be used: ${issue.message}`,
        'shortener.apiKey': 'Give the API key: a new shortener, provider or URL needs it.',
        'shortener.domain': 'Give a host name only, like go.example.com.',
      });
      setFieldErrors(problems.fields);
      setError(problems.summary);
      const first = fields.find(([path]) => problems.fields[path]);
      if (first) focusAfterRender(`${id}-${first[1]}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={save} className="stack" noValidate aria-describedby={`${id}-intro`}>
      <p id={`${id}-intro`} className="muted small">
        Applied when a post is published: every http(s) link in each account’s text gets the UTM parameters,
        then is shortened once per account, so clicks count per network and show in analytics as clicks.
      </p>
      <fieldset className="field">
        <legend className="label">UTM parameters</legend>
        <label className="checkbox">
          <input type="checkbox" checked={utmOn} onChange={(e) => setUtmOn(e.target.checked)} />
          <span>Add UTM parameters to links</span>
        </label>
        {utmOn && (
          <div className="stack" style={{ gap: 8 }}>
            <div className="field">
              <label htmlFor={`${id}-utm-source`}>utm_source</label>
              <input
                id={`${id}-utm-source`}
                className="input"
                value={source}
                maxLength={100}
                onChange={(e) => setSource(e.target.value)}
                {...fieldProps('utm.source', 'utm-source', `${id}-source-hint`)}
              />
              {fieldError('utm.source', 'utm-source')}
              <span className="hint" id={`${id}-source-hint`}>
                {'{platform}'} becomes the network: x, mastodon, bluesky…
              </span>
            </div>
            <div className="field">
              <label htmlFor={`${id}-utm-medium`}>utm_medium</label>
              <input
                id={`${id}-utm-medium`}
                className="input"
                value={medium}
                maxLength={100}
                onChange={(e) => setMedium(e.target.value)}
                {...fieldProps('utm.medium', 'utm-medium')}
              />
              {fieldError('utm.medium', 'utm-medium')}
            </div>
            <div className="field">
              <label htmlFor={`${id}-utm-campaign`}>utm_campaign (optional)</label>
              <input
                id={`${id}-utm-campaign`}
                className="input"
                value={campaign}
                maxLength={100}
                onChange={(e) => setCampaign(e.target.value)}
                {...fieldProps('utm.campaign', 'utm-campaign')}
              />
              {fieldError('utm.campaign', 'utm-campaign')}
            </div>
          </div>
        )}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-provider`}>URL shortener</label>
        <select
          id={`${id}-provider`}
          className="select"
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
        >
          {providers.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {provider && (
        <div className="stack" style={{ gap: 8 }}>
          <div className="field">
            <label htmlFor={`${id}-url`}>API URL</label>
            <input
              id={`${id}-url`}
              className="input"
              type="url"
              inputMode="url"
              value={apiUrl}
              maxLength={2000}
              onChange={(e) => setApiUrl(e.target.value)}
              {...fieldProps('shortener.apiUrl', 'url', `${id}-url-hint`)}
            />
            <span className="hint" id={`${id}-url-hint`}>
              {urlHint[provider]}
            </span>
            {fieldError('shortener.apiUrl', 'url')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-key`}>API key</label>
            <input
              id={`${id}-key`}
              className="input"
              type="password"
              autoComplete="off"
              value={apiKey}
              maxLength={500}
              onChange={(e) => setApiKey(e.target.value)}
              {...fieldProps('shortener.apiKey', 'key', `${id}-key-hint`)}
            />
            <span className="hint" id={`${id}-key-hint`}>
              {settings.shortener?.hasApiKey
                ? 'A key is stored (never shown). Leave empty to keep it; a new provider or URL needs it again.'
                : 'Stored encrypted and never shown again.'}
            </span>
            {fieldError('shortener.apiKey', 'key')}
          </div>
          <div className="field">
            <label htmlFor={`${id}-domain`}>Short domain (optional)</label>
            <input
              id={`${id}-domain`}
              className="input"
              value={domain}
              maxLength={253}
              placeholder="go.example.com"
              onChange={(e) => setDomain(e.target.value)}
              {...fieldProps('shortener.domain', 'domain')}
            />
            {fieldError('shortener.domain', 'domain')}
          </div>
        </div>
      )}
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {saved}
      </p>
      {saved && (
        <p className="muted small" aria-hidden="true">
          {saved}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" aria-disabled={busy || undefined}>
          {busy ? 'Saving…' : 'Save link settings'}
        </button>
      </div>
    </form>
  );
}
