/**
 * Next.js calls this once per server process: graceful shutdown, the due-posts gauge and the
 * in-process dispatcher start here.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startProcess } = await import('./server/lifecycle/process.ts');
  await startProcess();
}
