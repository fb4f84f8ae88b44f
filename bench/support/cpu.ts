import { readdirSync, readFileSync } from 'node:fs';

/*
 * CPU used by the other processes a bench's figure depends on (Linux /proc; 0 where it cannot be
 * read), so a loop's cost is seen whole: this process (`process.cpuUsage`), the database, the fake.
 */

/** CPU (µs) a process has used so far (/proc/<pid>/schedstat, ns). */
export function processCpuUs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return 0;
  }
}

/**
 * CPU (µs) used so far by every PostgreSQL server process on this machine, those that have ended
 * included (their time is added to the postmaster's children's time once it reaps them), so a
 * delta stays right when a pool's connections close in between.
 */
export function postgresCpuUs(): number {
  let us = 0;
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      us += processCpuUs(Number(entry));
      // Fields after the name: state is 3rd; cutime and cstime are the 16th and 17th, in clock ticks (1/100 s).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = readFileSync(`/proc/${fields[1]}/stat`, 'utf8');
      if (!parent.includes('(postgres)')) us += (Number(fields[13]) + Number(fields[14])) * 10_000;
    } catch {}
  }
  return us;
}
