import { z } from 'zod';

/** `POST /api/v1/link-preview`: the page whose card the composer's previews show. */
export const LinkPreviewRequest = z
  .object({ url: z.string().min(1).max(2048) })
  .meta({ id: 'LinkPreviewRequest' });
export type LinkPreviewRequest = z.infer<typeof LinkPreviewRequest>;

/** What a link card shows, from the page's Open Graph and Twitter Card tags (or its title). */
export const LinkPreview = z
  .object({
    /** The page's address after redirects (the card links here). */
    url: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    /** An absolute http(s) image URL from `og:image` / `twitter:image`. */
    image: z.string().optional(),
    siteName: z.string().optional(),
  })
  .meta({ id: 'LinkPreview' });
export type LinkPreview = z.infer<typeof LinkPreview>;
