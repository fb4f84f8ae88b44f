import { mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/**
 * The accessibility scan every journey can call: axe-core's WCAG 2.0/2.1/2.2 A and AA rules plus
 * its best practices (landmarks, one main heading, heading order), on the page as it is now.
 *
 *   await expectAccessible(page, 'compose');
 *
 * The full axe result is written to test-results/axe/<name>.json (kept as an artifact with the
 * screenshots) and attached to the test; the assertion lists each violation with its rule, impact,
 * help text and the offending elements, so a failure says what to fix.
 */
export const axeTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

export interface AxeScanOptions {
  /** CSS selectors to leave out (third-party widgets we do not render ourselves). */
  exclude?: string[];
  /** Rule ids to skip, each with the reason in a comment at the call site. */
  disableRules?: string[];
  testInfo?: TestInfo;
  /** Record the failure and go on (expect.soft), so one run reports every page's violations. */
  soft?: boolean;
}

export interface AxeViolationSummary {
  rule: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/** Runs the scan and returns the violations in a readable form (no assertion). */
export async function scanAccessibility(
  page: Page,
  name: string,
  options: AxeScanOptions = {},
): Promise<AxeViolationSummary[]> {
  let builder = new AxeBuilder({ page }).withTags(axeTags);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();
  mkdirSync('test-results/axe', { recursive: true });
  const file = `test-results/axe/${name}.json`;
  writeFileSync(file, JSON.stringify({ url: results.url, violations: results.violations }, null, 2));
  await options.testInfo?.attach(`axe-${name}`, { path: file, contentType: 'application/json' });
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: `${v.help} (${v.helpUrl})`,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.trim()),
  }));
}

/** Fails the test when the page has any axe violation. */
export async function expectAccessible(
  page: Page,
  name: string,
  options: AxeScanOptions = {},
): Promise<void> {
  const violations = await scanAccessibility(page, name, options);
  (options.soft ? expect.soft : expect)(violations, `axe violations on ${name} (${page.url()})`).toEqual([]);
}
