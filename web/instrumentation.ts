/** Next.js calls this once per server process: start the in-process dispatcher there. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startInProcessDispatcher } = await import('./server/dispatch/in-process.ts');
  await startInProcessDispatcher();
}
