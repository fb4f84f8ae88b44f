import { createHash } from 'node:crypto';

/** Bodies nested deeper than this are refused before anything walks them recursively. */
export const maxJsonDepth = 32;

/**
 * How deeply `value` nests objects and arrays (a scalar is 0, `{}` is 1), counted without
 * recursion and giving up as soon as `limit` is exceeded, so no input can exhaust the stack.
 */
export function jsonDepthExceeds(value: unknown, limit = maxJsonDepth): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return false;
}

type Frame = { kind: 'value'; value: unknown } | { kind: 'text'; text: string };

/**
 * JSON with object keys sorted (code-unit order) and no whitespace: the same document serialised
 * in any key order gives the same text. Built with an explicit stack, never recursion. `undefined`
 * members are dropped and `undefined` array items become `null`, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [{ kind: 'value', value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const current = frame.value;
    if (Array.isArray(current)) {
      const frames: Frame[] = [{ kind: 'text', text: '[' }];
      current.forEach((item, index) => {
        if (index > 0) frames.push({ kind: 'text', text: ',' });
        frames.push({ kind: 'value', value: item === undefined ? null : item });
      });
      frames.push({ kind: 'text', text: ']' });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
    } else if (current !== null && typeof current === 'object') {
      const record = current as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      const frames: Frame[] = [{ kind: 'text', text: '{' }];
      keys.forEach((key, index) => {
        frames.push({ kind: 'text', text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
        frames.push({ kind: 'value', value: record[key] });
      });
      frames.push({ kind: 'text', text: '}' });
      for (let i = frames.length - 1; i >= 0; i--) stack.push(frames[i]!);
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}

/**
 * The request fingerprint (docs/idempotency.md): method, path and the canonical JSON body. The caller must
 * have refused bodies deeper than `maxJsonDepth` first.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}
