import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

// Value imports and re-exports only: `import type` is erased, so a cycle through it loads nothing.
const importPattern = /(?:^|\n)\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** The source files of the product (tests excluded: a test may import what it likes). */
function sourceFiles(): string[] {
  return execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(
      (file) => file && !file.includes('/test/') && !file.startsWith('tests/') && !file.endsWith('.d.ts'),
    );
}

/** Where a specifier leads inside the repository, by the workspaces' import maps; outside it, nowhere. */
function resolve(from: string, specifier: string, files: Set<string>): string | undefined {
  const base = specifier.startsWith('#server/')
    ? `web/server/${specifier.slice('#server/'.length)}`
    : specifier.startsWith('#components/')
      ? `web/components/${specifier.slice('#components/'.length)}`
      : specifier === '@postwave/shared'
        ? 'shared/src/index.ts'
        : specifier.startsWith('@postwave/shared/')
          ? `shared/src/${specifier.slice('@postwave/shared/'.length)}`
          : specifier.startsWith('.')
            ? normalize(join(dirname(from), specifier))
            : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

/** Strongly connected groups of more than one file (Tarjan), each an import cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) found.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('form no cycle among the product’s files (a module is loaded before what it needs)', () => {
    const files = sourceFiles();
    const known = new Set(files);
    const graph = new Map(
      files.map((file) => {
        const text = readFileSync(join(root, file), 'utf8');
        const targets = [...text.matchAll(importPattern)]
          .map((match) => resolve(file, match[1]!, known))
          .filter((target): target is string => target !== undefined);
        return [file, targets];
      }),
    );
    assert.ok([...graph.values()].flat().length > 1000, 'the imports were read');
    assert.deepEqual(cycles(graph), []);
  });
});
