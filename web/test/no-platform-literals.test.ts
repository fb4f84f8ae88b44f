import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { platformManifests, platformModules } from '@postwave/shared';

/**
 * A platform is its SDK folder plus one registry line: the adapters render and route from the
 * manifests and the registry, so no platform id may be written into their source. Tests are
 * exempt (they drive real platforms' fakes by name).
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scanned = ['web', 'selfhosted'];
const skippedDirs = new Set(['node_modules', '.next', 'test', 'tests', 'public', 'data', '.data']);
const sourceFile = /\.(ts|tsx|js|jsx|mjs|cjs)$/;
const testFile = /\.(test|spec)\.[a-z]+$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skippedDirs.has(entry.name) ? [] : sources(path);
    return sourceFile.test(entry.name) && !testFile.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [path]
      : [];
  });
}

/** A quoted id ('x', "x", `x`), an id ending a quoted path ('/connect/x'), or a table key (`x: {`). */
function literalPatterns(id: string): RegExp[] {
  return [new RegExp(`['"\`]${id}['"\`]`), new RegExp(`/${id}['"\`/?]`), new RegExp(`^\\s*${id}\\s*:`)];
}

test('no platform id literal remains in web/ or selfhosted/ source outside tests', () => {
  const ids = platformModules.map((m) => m.id);
  assert.ok(ids.length > 0);
  const files = scanned.flatMap((dir) => sources(join(root, dir)));
  assert.ok(files.length > 20, 'the scan found the source files');
  const found: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const id of ids) {
          if (literalPatterns(id).some((pattern) => pattern.test(line)))
            found.push(`${relative(root, file)}:${index + 1}: ${id}: ${line.trim()}`);
        }
      });
  }
  assert.deepEqual(found, [], `platform ids written into adapter source:\n${found.join('\n')}`);
});

test('browser components reach the SDK through its browser-safe modules only, never the registry', () => {
  const allowed =
    /^@postwave\/shared\/(platforms\/(manifests?|option-fields)|text|media\/kinds|error-hints|schemas\/recycle-limits|analytics\/calendar-day)$/;
  const found: string[] = [];
  for (const file of sources(join(root, 'web/components'))) {
    const source = readFileSync(file, 'utf8');
    for (const [statement, specifier] of source.matchAll(
      /^(?:import|export)\s[^;]*?from\s+'(@postwave\/shared[^']*)'/gm,
    )) {
      if (/^(import|export) type\s/.test(statement) || allowed.test(specifier!)) continue;
      found.push(`${relative(root, file)}: ${specifier}`);
    }
  }
  assert.deepEqual(found, []);
});

test('no platform name is written into web/ or selfhosted/ code outside comments and tests', () => {
  // Lists of platforms in copy ("publish to Telegram, Bluesky, ...") come from the manifests, so
  // a new platform appears everywhere at once. Short names ("X") are left to the id check above.
  const names = platformManifests.map((m) => m.name).filter((name) => name.length >= 5);
  assert.ok(names.length > 0);
  const comment = /^\s*(\/\/|\/?\*)/;
  const found: string[] = [];
  for (const file of scanned.flatMap((dir) => sources(join(root, dir)))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const code = line.replace(/\/\/.*$|\/\*.*?\*\//g, '');
        if (comment.test(line)) return;
        for (const name of names) {
          if (new RegExp(`\\b${name}\\b`).test(code))
            found.push(`${relative(root, file)}:${index + 1}: ${name}: ${line.trim()}`);
        }
      });
  }
  assert.deepEqual(found, [], `platform names written into adapter code:\n${found.join('\n')}`);
});
