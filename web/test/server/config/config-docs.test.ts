import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { envVariables } from '@postwave/shared';
import { mentions, readEnvDoc } from '../../../../shared/test/support/env-docs.ts';
import { loadConfig, schedulerSettings } from '../../../server/config.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const variables = envVariables(schedulerSettings);
const docs = [
  { file: 'docs/scheduler.env', sections: [''] },
  { file: '.env.example', sections: ['Both servers', 'Scheduler (npm start)'] },
];

test('the Scheduler declares each variable once', () => {
  assert.ok(variables.length > 50);
  assert.equal(new Set(variables).size, variables.length);
});

test('docs/scheduler.md: the configuration table names every variable', () => {
  const { text } = readEnvDoc(join(root, 'docs/scheduler.md'));
  assert.deepEqual(
    variables.filter((variable) => !mentions(text, variable)),
    [],
  );
});

for (const { file, sections } of docs) {
  test(`${file} describes every variable the Scheduler reads`, () => {
    const { text } = readEnvDoc(join(root, file));
    const missing = variables.filter((variable) => !mentions(text, variable));
    assert.deepEqual(missing, [], `not described in ${file}`);
  });

  test(`${file} shows each Scheduler variable's default as its value`, () => {
    const base = {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'postwave-config-docs-')),
      AUTH_SECRET: 'a'.repeat(48),
      CREDENTIALS_ENCRYPTION_KEY: 'b'.repeat(64),
    };
    const comparable = (env: Record<string, string>) => {
      const { env: _raw, warnings: _warnings, ...config } = loadConfig({ ...base, ...env });
      return config;
    };
    const defaults = comparable({});
    const documented = readEnvDoc(join(root, file)).lines.filter(
      (line) =>
        !line.commented &&
        sections.includes(line.section) &&
        variables.includes(line.name) &&
        !(line.name in base),
    );
    assert.ok(documented.length > 30, 'the file lists the variables');
    for (const { name, value } of documented)
      assert.deepEqual(comparable({ [name]: value }), defaults, `${file}: ${name}=${value}`);
  });
}
