#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { run } from './cli.ts';

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  progress: process.stderr,
  readStdin: () => readFileSync(0, 'utf8'),
});
