import { readFileSync } from 'node:fs';

/** One `NAME=value` line of an env file (`# NAME=value` when commented out) and its `# ===== section =====`. */
export interface EnvDocLine {
  name: string;
  value: string;
  commented: boolean;
  section: string;
}

export function readEnvDoc(path: string): { text: string; lines: EnvDocLine[] } {
  const text = readFileSync(path, 'utf8');
  let section = '';
  const lines: EnvDocLine[] = [];
  for (const line of text.split('\n')) {
    const heading = /^# =+ (.+?) =+$/.exec(line);
    if (heading) section = heading[1]!;
    const entry = /^(# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (entry) lines.push({ name: entry[2]!, value: entry[3]!, commented: Boolean(entry[1]), section });
  }
  return { text, lines };
}

/** Whether an env file mentions a variable, or a family's prefix (`PUBLISH_RATE_<PLATFORM>_<SCOPE>` → `PUBLISH_RATE_`). */
export function mentions(text: string, variable: string): boolean {
  const name = variable.replace(/<.*$/, '');
  return new RegExp(`\\b${name}${variable.includes('<') ? '' : '\\b'}`).test(text);
}
