/** Next.js calls this once per server process: start the in-process dispatcher there. */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, so that the client address of every request is known (TRUST_PROXY, sign-in limits).
  const { installPeerHook } = await import('./server/security/peer-hook.ts');
  installPeerHook();
  const { startInProcessDispatcher } = await import('./server/dispatch/in-process.ts');
  await startInProcessDispatcher();
  // Idle OAuth connections are renewed ahead of expiry, independent of the dispatcher.
  const [{ getContext }, { startCredentialKeeper }] = await Promise.all([
    import('./server/context.ts'),
    import('./server/accounts/credential-keeper.ts'),
  ]);
  startCredentialKeeper(await getContext());
}
