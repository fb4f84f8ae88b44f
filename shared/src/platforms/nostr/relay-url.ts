/** Why a relay URL is not usable, or undefined when it is a `wss://` or `ws://` URL. Browser-safe. */
export function relayUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'wss:' && url.protocol !== 'ws:') return 'must start with wss:// or ws://';
  if (url.username || url.password) return 'must not carry credentials';
  return undefined;
}
