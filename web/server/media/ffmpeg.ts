import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/*
 * The ffmpeg that makes video posters (docs/media-library.md#thumbnails-and-posters): found once
 * at start, run with a deadline and capped output. ffmpeg is a system program (Debian's `ffmpeg`
 * package, in the Scheduler's image), not an npm dependency: no npm package ships a maintained
 * build without downloading it at install time.
 */

/** An executable regular file. */
function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `FFMPEG_PATH` resolved: unset, `ffmpeg` on `PATH` if there is one (else no posters); `off`, none;
 * otherwise that program, which must exist (an error names the variable).
 */
export function resolveFfmpeg(
  setting: string | undefined,
  searchPath: string | undefined,
): { path: string | undefined } | { error: string } {
  const value = setting?.trim();
  if (value === 'off') return { path: undefined };
  if (value) {
    if (!isAbsolute(value)) return { error: 'must be an absolute path to ffmpeg, or off' };
    return isExecutable(value) ? { path: value } : { error: `${value} is not an executable file` };
  }
  for (const dir of (searchPath ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'ffmpeg');
    if (isExecutable(candidate)) return { path: candidate };
  }
  return { path: undefined };
}

export interface FfmpegRun {
  /** Exit code; null when it was killed (deadline). */
  code: number | null;
  stdout: Buffer;
  /** The start of what it wrote to stderr (its probe lines, its errors). */
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs ffmpeg with `args`, no stdin, killed past `timeoutMs`. Standard output past `maxStdout`
 * bytes kills it too (the run answers what came); stderr is kept to its first 64 KiB.
 */
export function runFfmpeg(
  ffmpeg: string,
  args: readonly string[],
  options: { timeoutMs: number; maxStdout: number },
): Promise<FfmpegRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > options.maxStdout) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 65_536) err += chunk.toString('utf8');
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err.slice(0, 65_536), timedOut });
    });
  });
}
