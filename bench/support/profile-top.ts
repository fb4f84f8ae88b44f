/**
 * Prints the top of a V8 CPU profile (`node --cpu-prof` or PROFILE_OUT of the profile-* aids) as
 * text: self time per function (with its file and line) and per file, so a profile can be kept
 * beside a bench's figures (bench/profiles/). `node bench/support/profile-top.ts <file> [rows]`.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = process.argv[2];
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [rows]');
const rows = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries())
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const short = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'npm:')
    .replace(/^.*\/(web|shared|selfhosted|bench)\//, '$1/');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const node of profile.nodes) {
  const us = self.get(node.id) ?? 0;
  if (!us) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${short(url)}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const place = url ? short(url).replace(/^(npm:(@[^/]+\/)?[^/]+).*$/, '$1') : functionName;
  byFile.set(place, (byFile.get(place) ?? 0) + us);
}
const table = (title: string, map: Map<string, number>) => {
  console.log(`${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
};
table('self time by function', byFunction);
console.log('');
table('self time by file or package', byFile);
