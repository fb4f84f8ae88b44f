import { type LinkTracking, type TrackedLink, trackLinks } from '../links/track.ts';
import type { Logger } from '../logger.ts';
import type { PlatformAccount, PublishContext } from '../platforms/types.ts';
import type { ValidationIssue } from '../schemas/results.ts';
import type { PreparedTarget } from './posting.ts';

export interface TargetLinkHooks {
  /** The workspace's link tracking for this account (docs/links.md); nothing tracked when undefined. */
  linkTracking?: (account: PlatformAccount) => Promise<LinkTracking | undefined>;
  /** What became of the target's links, before its first step is sent (the Scheduler keeps them). */
  onLinksTracked?: (accountId: string, links: TrackedLink[]) => Promise<void>;
}

/**
 * The target with its links tracked, validated again on the final text: a short link is usually
 * shorter than the long one, but UTM parameters (or a failed shortener) make links longer, which
 * counts against the limit on platforms that count links in full. When any final text no longer
 * validates, the target is sent as written (no UTM, no short links) with a warning: tracking is
 * an extra and never blocks the post. Never throws.
 */
export async function withTrackedLinks(
  target: PreparedTarget,
  hooks: TargetLinkHooks,
  context: Pick<PublishContext, 'resolveOwnMedia' | 'accountHostFetch'>,
  logger: Logger,
): Promise<{ target: PreparedTarget; links: TrackedLink[]; warnings: ValidationIssue[] }> {
  const { account, publisher } = target;
  if (!hooks.linkTracking) return { target, links: [], warnings: [] };
  try {
    const tracking = await hooks.linkTracking(account);
    if (!tracking || (!tracking.utm && !tracking.shorten)) return { target, links: [], warnings: [] };
    const texts = [target.message, ...target.thread.map((p) => p.message)];
    if (target.firstComment !== undefined) texts.push(target.firstComment);
    const tracked = await trackLinks(texts, account.platform, tracking);
    let links = tracked.links;
    let final = tracked.texts;
    if (links.length === 0) return { target, links, warnings: [] };
    const media = [target.media, ...target.thread.map((p) => p.media)];
    const checks = await Promise.all(
      media.map((files, i) =>
        final[i] === texts[i]
          ? { errors: [] }
          : publisher.validate({ message: final[i]! }, account, files, target.options, context),
      ),
    );
    if (checks.some((c) => c.errors.length > 0)) {
      final = texts;
      const message = `With tracked links the text no longer fits ${account.platform}'s limits; its links were posted as written.`;
      links = links.map(({ shortUrl: _, ...link }) => ({
        ...link,
        longUrl: link.url,
        postedUrl: link.url,
        warning: { code: 'links_not_tracked', message },
      }));
    }
    await hooks.onLinksTracked?.(account.id, links);
    const rewritten: PreparedTarget = {
      ...target,
      message: final[0]!,
      thread: target.thread.map((part, i) => ({ ...part, message: final[i + 1]! })),
      ...(target.firstComment !== undefined ? { firstComment: final[target.thread.length + 1]! } : {}),
    };
    return { target: rewritten, links, warnings: warningsOf(links) };
  } catch (error) {
    logger.warn({ err: error, accountId: account.id }, 'link tracking failed; links posted as written');
    return {
      target,
      links: [],
      warnings: [
        { code: 'links_not_tracked', message: 'Links could not be tracked; they were posted as written.' },
      ],
    };
  }
}

/** What link tracking adds to a target's result: its warnings and links (none: nothing added). */
export function linkExtras(tracked: { links: TrackedLink[]; warnings: ValidationIssue[] }) {
  return {
    ...(tracked.warnings.length ? { warnings: tracked.warnings } : {}),
    ...(tracked.links.length
      ? {
          links: tracked.links.map((l) => ({
            url: l.url,
            longUrl: l.longUrl,
            ...(l.shortUrl ? { shortUrl: l.shortUrl } : {}),
          })),
        }
      : {}),
  };
}

/** One warning per distinct reason and link. */
export function warningsOf(links: readonly TrackedLink[]): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const link of links) {
    if (!link.warning) continue;
    const key = `${link.warning.code} ${link.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: link.warning.code, message: `${link.url}: ${link.warning.message}` });
  }
  return out;
}
