/**
 * Next.js calls this once per server process: the peer hook, graceful shutdown, the due-posts gauge and
 * the in-process dispatcher start here.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, so that the client address of every request is known (TRUST_PROXY, sign-in limits).
  const { installPeerHook } = await import('./server/security/peer-hook.ts');
  installPeerHook();
  // Graceful shutdown, the due-posts gauge, then the in-process dispatcher.
  const { startProcess } = await import('./server/lifecycle/process.ts');
  await startProcess();
}
