import { useEffect, useState } from 'react';

export interface LinkPreview {
  url: string;
  title?: string;
  description?: string;
  image?: string;
  siteName?: string;
}

/** One request per URL for the page's lifetime; a refusal (422) is remembered as "no card". */
const cache = new Map<string, Promise<LinkPreview | null>>();

function load(url: string): Promise<LinkPreview | null> {
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch('/api/v1/link-preview', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
      credentials: 'same-origin',
    })
      .then(async (response) => {
        // A rate limit or outage is not the page's answer: ask again next time.
        if (response.status === 429 || response.status >= 500) cache.delete(url);
        return response.ok ? ((await response.json()) as LinkPreview) : null;
      })
      .catch(() => {
        cache.delete(url);
        return null;
      });
    cache.set(url, pending);
  }
  return pending;
}

/** The link card for a URL, asked for after typing pauses; undefined while unknown or when there is none. */
export function useLinkPreview(url: string | undefined): LinkPreview | undefined {
  const [preview, setPreview] = useState<{ url: string; card: LinkPreview | null }>();
  useEffect(() => {
    if (!url) return;
    let live = true;
    const timer = setTimeout(() => {
      load(url).then((card) => {
        if (live) setPreview({ url, card });
      });
    }, 600);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url]);
  return url && preview?.url === url ? (preview.card ?? undefined) : undefined;
}
