import { headers } from 'next/headers';
import { fallbackLocale } from '../../components/lib/time.ts';

/**
 * The locale dates are written in: the first language of the browser's Accept-Language that Intl
 * supports, else en-GB. Read on the server and handed to client components (time-context.tsx), so
 * server and browser render the same text.
 */
export async function requestLocale(): Promise<string> {
  const header = (await headers()).get('accept-language') ?? '';
  for (const part of header.split(',').slice(0, 10)) {
    const tag = part.split(';')[0]?.trim();
    if (!tag || tag === '*' || tag.length > 35) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // A malformed tag: try the next one.
    }
  }
  return fallbackLocale;
}
