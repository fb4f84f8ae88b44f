import pg from 'pg';

/**
 * Counts the statements (round trips) sent to PostgreSQL through `pg` while `on` is true, by their
 * first words, with the time each took from sent to answered: what a bench's figure costs the
 * database, independent of how busy the machine is. Every statement goes through Client#query
 * (the pool's own query calls it once, with a callback; a direct call gets a promise).
 */
export function countStatements() {
  const statements = new Map<string, { count: number; ms: number }>();
  let on = false;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (!on) return query.apply(this, args);
    const first = args[0] as string | { text: string };
    const text = typeof first === 'string' ? first : first.text;
    const key = text.slice(0, 200).replace(/\s+/g, ' ').trim().slice(0, 70);
    const entry = statements.get(key) ?? { count: 0, ms: 0 };
    statements.set(key, entry);
    entry.count++;
    const sent = performance.now();
    const done = () => {
      entry.ms += performance.now() - sent;
    };
    const last = args.at(-1);
    if (typeof last === 'function')
      args[args.length - 1] = (...answer: unknown[]) => {
        done();
        return (last as (...a: unknown[]) => unknown)(...answer);
      };
    const answer = query.apply(this, args);
    if (answer instanceof Promise) void answer.then(done, () => {});
    return answer;
  } as never;
  return {
    start() {
      on = true;
    },
    stop() {
      on = false;
    },
    /** The statements per `unit` (e.g. per post, per target), most frequent first. */
    report(units: number, unit: string): string {
      const all = [...statements.values()].reduce((a, b) => a + b.count, 0);
      const lines = [`statements: ${all} for ${units} ${unit}s → ${(all / units).toFixed(3)} per ${unit}`];
      for (const [text, { count, ms }] of [...statements].sort((a, b) => b[1].count - a[1].count))
        lines.push(
          `${(count / units).toFixed(4).padStart(9)} per ${unit}  ${String(count).padStart(6)}  ${(ms / count).toFixed(1).padStart(6)} ms each  ${text}`,
        );
      return lines.join('\n');
    },
  };
}
