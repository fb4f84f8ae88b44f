import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * Components render what the server gives them: they take types from `web/server` (the shapes in
 * its schema.ts files), never values. Data (a list of statuses) and server actions reach them as
 * props from the page, so no server module (database schema, secrets, drizzle) can be pulled into
 * a component, nor into a browser bundle through a client component.
 */
const web = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const components = files(join(web, 'components'));
const clientModules = files(join(web, 'app')).filter((file) =>
  /^\s*['"]use client['"]/.test(readFileSync(file, 'utf8')),
);

test('no component or client module imports a value from web/server', () => {
  assert.ok(components.length > 20, 'the scan found the components');
  const found: string[] = [];
  for (const file of [...components, ...clientModules]) {
    const source = readFileSync(file, 'utf8');
    for (const [statement, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gm)) {
      const fromServer = specifier!.startsWith('#server/') || /(^|\/)server\//.test(specifier!);
      if (!fromServer || /^(?:import|export) type\s/.test(statement)) continue;
      found.push(`${relative(web, file)}: ${statement.replace(/\s+/g, ' ')}`);
    }
  }
  assert.deepEqual(found, [], `value imports from web/server:\n${found.join('\n')}`);
});

test('what components import from web/server is a shape from a schema.ts file', () => {
  const found: string[] = [];
  for (const file of [...components, ...clientModules]) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /^import type\s[^;]*?from\s+'([^']+)'/gm,
    )) {
      const fromServer = specifier!.startsWith('#server/') || /(^|\/)server\//.test(specifier!);
      if (fromServer && !specifier!.endsWith('/schema.ts'))
        found.push(`${relative(web, file)}: ${specifier}`);
    }
  }
  assert.deepEqual(found, []);
});
