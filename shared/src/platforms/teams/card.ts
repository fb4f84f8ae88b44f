import { utf8Length } from '../../text.ts';

/** Teams refuses a message over about 28 KB; a Workflows webhook answers 202 before checking. */
export const maxCardBytes = 28 * 1024;

export interface CardImage {
  url: string;
  altText?: string | undefined;
}

export interface CardOptions {
  title?: string | undefined;
  fullWidth?: boolean | undefined;
}

/**
 * The webhook body: one Adaptive Card 1.4 in a `message` activity. Each line of the text is a
 * TextBlock (`wrap: true`, lines of one paragraph without spacing, so line breaks survive Teams'
 * Markdown), the title a bold heading, each image an Image by its public URL. Browser-safe.
 */
export function teamsMessage(message: string, images: readonly CardImage[], options: CardOptions): object {
  const body: object[] = [];
  if (options.title)
    body.push({ type: 'TextBlock', text: options.title, size: 'Medium', weight: 'Bolder', wrap: true });
  const paragraphs = message
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .filter((p) => p.trim() !== '');
  for (const paragraph of paragraphs) {
    paragraph
      .replace(/^\n+|\n+$/g, '')
      .split('\n')
      .forEach((line, index) => {
        body.push({ type: 'TextBlock', text: line, wrap: true, ...(index > 0 ? { spacing: 'None' } : {}) });
      });
  }
  for (const image of images) {
    body.push({
      type: 'Image',
      url: image.url,
      ...(image.altText ? { altText: image.altText } : {}),
      size: 'Stretch',
    });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(options.fullWidth ? { msteams: { width: 'Full' } } : {}),
        },
      },
    ],
  };
}

/** The body's size as sent (UTF-8 JSON), what the 28 KB limit counts. */
export function messageBytes(message: object): number {
  return utf8Length(JSON.stringify(message));
}
