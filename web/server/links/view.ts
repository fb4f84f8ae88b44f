import { dubDefaultApiUrl, type TargetLink, type UtmSettings, type ValidationIssue } from '@postwave/shared';
import type { LinkSettingsRow, TargetLinkRow } from './repository.ts';
import type { LinkSettingsView } from './schema.ts';

/** The settings as answered: the API key only as `hasApiKey`. */
export function toLinkSettingsView(row: LinkSettingsRow | undefined): LinkSettingsView {
  return {
    utm: row?.utm ? { source: row.utm.source ?? '', ...pick(row.utm) } : null,
    shortener: row?.provider
      ? {
          provider: row.provider,
          apiUrl: row.apiUrl ?? (row.provider === 'dub' ? dubDefaultApiUrl : ''),
          domain: row.domain,
          hasApiKey: Boolean(row.apiKey),
        }
      : null,
  };
}

function pick(utm: UtmSettings): { medium?: string; campaign?: string } {
  return {
    ...(utm.medium ? { medium: utm.medium } : {}),
    ...(utm.campaign ? { campaign: utm.campaign } : {}),
  };
}

/** The cipher's associated data: a stored key decrypts for its own workspace only. */
export const shortenerKeyAad = (workspaceId: string) => `workspace-shortener-key:${workspaceId}`;

/** Per account: its tracked links and the warnings they left, as a post's results show them. */
export interface TargetLinksEntry {
  links: TargetLink[];
  warnings: ValidationIssue[];
}

export function targetLinksView(rows: readonly TargetLinkRow[]): Map<string, TargetLinksEntry> {
  const out = new Map<string, TargetLinksEntry>();
  for (const row of [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    let entry = out.get(row.accountId);
    if (!entry) {
      entry = { links: [], warnings: [] };
      out.set(row.accountId, entry);
    }
    // A short link made but not posted (the text would not fit with it) is not shown as posted.
    const posted = row.shortUrl && row.warning?.code !== 'links_not_tracked';
    entry.links.push({
      url: row.url,
      longUrl: row.warning?.code === 'links_not_tracked' ? row.url : row.longUrl,
      ...(posted ? { shortUrl: row.shortUrl! } : {}),
      ...(posted && row.clicks !== null ? { clicks: row.clicks } : {}),
    });
    if (row.warning)
      entry.warnings.push({ code: row.warning.code, message: `${row.url}: ${row.warning.message}` });
  }
  return out;
}
