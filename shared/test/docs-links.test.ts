import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The documentation's relative links must lead somewhere: a moved or renamed page, or a renamed
 * heading, fails here instead of leaving readers at a 404. Covers the README, SECURITY.md and
 * every page under docs/ (see docs/development.md, "Documentation").
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name))
    .sort();
}

const pages = ['README.md', 'SECURITY.md', ...markdownUnder('docs')];

/** The text outside fenced code blocks, line by line (numbers kept), inline code spans blanked. */
function proseLines(markdown: string): { line: number; text: string; code: string[] }[] {
  const lines: { line: number; text: string; code: string[] }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((raw, index) => {
    const opener = raw.match(/^\s*(`{3,}|~{3,})/)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      return;
    }
    if (opener) {
      fence = opener;
      return;
    }
    const code: string[] = [];
    const text = raw.replace(/(`+)(.+?)\1/g, (_match, ticks: string, inner: string) => {
      code.push(inner.trim());
      return ' '.repeat(ticks.length * 2 + inner.length);
    });
    lines.push({ line: index + 1, text, code });
  });
  return lines;
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const raw of markdown.split('\n')) {
    const opener = raw.match(/^\s*(`{3,}|~{3,})/)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    for (const [, id] of raw.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
    const heading = raw.match(/^#{1,6}\s+(.*?)\s*#*\s*$/)?.[1];
    if (heading === undefined) continue;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsIn(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** Every relative link target of a page: inline links, images and reference definitions. */
function linksOf(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text } of proseLines(markdown)) {
    for (const [, target] of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      links.push({ line, target: target! });
    const definition = text.match(/^\s{0,3}\[[^\]]+\]:\s+<?([^\s>]+)>?/);
    if (definition) links.push({ line, target: definition[1]! });
  }
  return links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** Why a link from `page` to `target` does not resolve, or undefined when it does. */
function brokenLink(page: string, target: string): string | undefined {
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(root, page) : resolve(dirname(join(root, page)), decodeURIComponent(path));
  if (!file.startsWith(root)) return 'leads outside the repository';
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md'))
    return 'an anchor on a file that is not Markdown';
  return anchorsIn(file).has(decodeURIComponent(anchor)) ? undefined : `no heading #${anchor}`;
}

describe('documentation links', () => {
  it('finds the pages', () => {
    assert.ok(pages.includes('docs/README.md'));
    assert.ok(pages.length > 20, pages.join(', '));
  });

  it('resolve every relative link and anchor', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { line, target } of linksOf(readFileSync(join(root, page), 'utf8'))) {
        const why = brokenLink(page, target);
        if (why) broken.push(`${page}:${line}: (${target}): ${why}`);
      }
    }
    assert.deepEqual(broken, [], `broken links:\n${broken.join('\n')}`);
  });

  it('name only existing docs/ files in code spans', () => {
    const missing: string[] = [];
    for (const page of pages) {
      for (const { line, code } of proseLines(readFileSync(join(root, page), 'utf8'))) {
        for (const span of code) {
          const path = span.match(/^docs\/[\w./-]+?(?=#|$)/)?.[0];
          if (path && !existsSync(join(root, path))) missing.push(`${page}:${line}: \`${span}\``);
        }
      }
    }
    assert.deepEqual(missing, [], `missing files:\n${missing.join('\n')}`);
  });

  it('list every page of docs/ in the index, and every platform page in the README', () => {
    const linkedFrom = (page: string) =>
      new Set(
        linksOf(readFileSync(join(root, page), 'utf8')).map(({ target }) =>
          relative(root, resolve(dirname(join(root, page)), target.split('#')[0]!)),
        ),
      );
    const index = linkedFrom('docs/README.md');
    const unlisted = readdirSync(join(root, 'docs'))
      .filter((name) => /\.(md|env)$/.test(name) && name !== 'README.md')
      .map((name) => `docs/${name}`)
      .filter((path) => !index.has(path));
    assert.deepEqual(unlisted, [], `add a line for each to docs/README.md: ${unlisted.join(', ')}`);

    const readme = linkedFrom('README.md');
    const platformPages = readdirSync(join(root, 'docs/platforms'))
      .filter((name) => name.endsWith('.md') && name !== 'README.md')
      .map((name) => `docs/platforms/${name}`)
      .filter((path) => !readme.has(path));
    assert.deepEqual(
      platformPages,
      [],
      `add a row for each to the README's platform table: ${platformPages.join(', ')}`,
    );
  });
});
