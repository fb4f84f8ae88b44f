import { dubDefaultApiUrl } from '@postwave/shared';
import type { AppContext } from '#server/context.ts';
import { validationFailed } from '#server/http/problems.ts';
import { checkSavedUrl } from '#server/security/saved-url.ts';
import { findLinkSettings, saveLinkSettings } from './repository.ts';
import type { LinkSettingsView, UpdateLinkSettings } from './schema.ts';
import { shortenerKeyAad, toLinkSettingsView } from './view.ts';

/**
 * `PUT /api/v1/workspaces/{id}/links` (owners and admins). The shortener's host is user-chosen:
 * checked now against the SSRF rules (section D) and again by the safe fetch on every call. A
 * stored key is kept only while the provider and the URL stay: it is never sent to a new host.
 */
export async function updateLinkSettings(
  ctx: AppContext,
  workspaceId: string,
  change: UpdateLinkSettings,
): Promise<LinkSettingsView> {
  const current = await findLinkSettings(ctx, workspaceId);
  const next = {
    workspaceId,
    utm: current?.utm ?? null,
    provider: current?.provider ?? null,
    apiUrl: current?.apiUrl ?? null,
    apiKey: current?.apiKey ?? null,
    domain: current?.domain ?? null,
    updatedAt: new Date(),
  };
  if (change.utm !== undefined) next.utm = change.utm;
  if (change.shortener === null) {
    Object.assign(next, { provider: null, apiUrl: null, apiKey: null, domain: null });
  } else if (change.shortener) {
    const s = change.shortener;
    const apiUrl = s.apiUrl ?? (s.provider === 'dub' ? dubDefaultApiUrl : undefined);
    if (!apiUrl)
      throw validationFailed('The shortener needs its URL', [
        {
          path: 'shortener.apiUrl',
          code: 'required',
          message: `${s.provider} needs apiUrl: your instance's address`,
        },
      ]);
    const checked = (await checkSavedUrl(ctx, apiUrl, 'shortener.apiUrl', 'The shortener URL'))
      .toString()
      .replace(/\/+$/, '');
    const sameHost = current?.provider === s.provider && current?.apiUrl === checked;
    if (!s.apiKey && !(sameHost && current?.apiKey))
      throw validationFailed('The shortener needs its API key', [
        {
          path: 'shortener.apiKey',
          code: 'required',
          message: 'Give the API key (needed for a new shortener, provider or URL)',
        },
      ]);
    next.provider = s.provider;
    next.apiUrl = checked;
    next.apiKey = s.apiKey ? ctx.cipher.encrypt(s.apiKey, shortenerKeyAad(workspaceId)) : current!.apiKey;
    // An omitted domain keeps the stored one only for the same shortener: another provider or URL
    // starts from its own default domain, never the old one's (links it cannot serve).
    if (s.domain !== undefined) next.domain = s.domain ? s.domain.toLowerCase() : null;
    else if (!sameHost) next.domain = null;
  }
  await saveLinkSettings(ctx, next);
  return toLinkSettingsView(next);
}
