import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { envVariables } from '@postwave/shared';
import { mentions, readEnvDoc } from '../../shared/test/support/env-docs.ts';
import { loadConfig, selfhostedSettings } from '../src/config.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const variables = envVariables(selfhostedSettings);
const docs = [
  { file: 'docs/selfhosted.env', sections: [''] },
  { file: '.env.example', sections: ['Both servers', 'Self-hosted server (npm run start:selfhosted)'] },
];

test('the self-hosted server declares each variable once', () => {
  assert.equal(new Set(variables).size, variables.length);
});

test('docs/selfhosted.md: the configuration table names every variable', () => {
  const { text } = readEnvDoc(join(root, 'docs/selfhosted.md'));
  assert.deepEqual(
    variables.filter((variable) => !mentions(text, variable)),
    [],
  );
});

for (const { file, sections } of docs) {
  test(`${file} describes every variable the self-hosted server reads`, () => {
    const { text } = readEnvDoc(join(root, file));
    const missing = variables.filter((variable) => !mentions(text, variable));
    assert.deepEqual(missing, [], `not described in ${file}`);
  });

  test(`${file} shows each self-hosted variable's default as its value`, () => {
    const base = { SERVICE_API_KEY: 'k'.repeat(32) };
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
    assert.ok(documented.length > 15, 'the file lists the variables');
    for (const { name, value } of documented)
      assert.deepEqual(comparable({ [name]: value }), defaults, `${file}: ${name}=${value}`);
  });
}
