import { routeMethods } from '#server/api/route-methods.ts';

type Segment = { kind: 0; name: string } | { kind: 1 } | { kind: 2 };
interface Pattern {
  segments: Segment[];
  allow: string[];
}

/** `[id]` matches one segment, `[...path]` one or more; any other segment only itself. */
function segmentOf(part: string): Segment {
  if (/^\[\.\.\..+\]$/.test(part)) return { kind: 2 };
  if (/^\[.+\]$/.test(part)) return { kind: 1 };
  return { kind: 0, name: part };
}

/**
 * What Next answers for each method besides those a route file exports: HEAD runs GET, and
 * OPTIONS (when the file has none) is a 204 listing the methods (Next's `autoImplementMethods`).
 */
function allowOf(exported: readonly string[]): string[] {
  const allow = new Set(exported);
  if (allow.has('GET')) allow.add('HEAD');
  allow.add('OPTIONS');
  return [...allow].sort();
}

const patterns: Pattern[] = Object.entries(routeMethods).map(([path, methods]) => ({
  segments: path.split('/').slice(1).map(segmentOf),
  allow: allowOf(methods),
}));

/** The rank of each segment a pattern matched with (0 static, 1 dynamic, 2 catch-all), or undefined. */
function match(segments: Segment[], parts: string[]): number[] | undefined {
  const ranks: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment.kind === 2) return parts.length > i ? [...ranks, 2] : undefined;
    const part = parts[i];
    if (part === undefined || part === '') return undefined;
    if (segment.kind === 0 && segment.name !== part) return undefined;
    ranks.push(segment.kind);
  }
  return parts.length === segments.length ? ranks : undefined;
}

function earlier(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length > b.length;
}

/**
 * The methods the route file serving `pathname` answers (its `Allow` header), or undefined when no
 * route file serves it (a page, or nothing). Next serves a path from one file only, preferring a
 * static segment over `[id]` over `[...path]` at the first place they differ, and answers a method
 * that file does not export with an empty 405; web/proxy.ts uses this to answer a problem instead.
 */
export function allowedMethods(pathname: string): readonly string[] | undefined {
  const parts = pathname.split('/').slice(1);
  let best: { ranks: number[]; allow: string[] } | undefined;
  for (const pattern of patterns) {
    const ranks = match(pattern.segments, parts);
    if (ranks && (!best || earlier(ranks, best.ranks))) best = { ranks, allow: pattern.allow };
  }
  return best?.allow;
}
