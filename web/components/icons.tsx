/**
 * The app's icons as inline SVG (24×24, stroked in the current text colour). No icon font and no
 * emoji or symbol characters: those render as a missing-glyph box where the font lacks them.
 * Decorative by default (aria-hidden); pass `label` when the icon alone carries meaning.
 */

const paths = {
  plus: 'M12 5v14M5 12h14',
  image:
    'M5 3h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2ZM8.5 10a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3ZM21 15l-5-5L5 21',
  video: 'M23 7l-7 5 7 5V7ZM3 5h11a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H3a2 2 0 0 1-2-2V7a2 2 0 0 1 2-2Z',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8ZM14 2v6h6M8 13h8M8 17h5',
  list: 'M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01',
  key: 'M21 2l-2 2m-7.6 7.6a5.5 5.5 0 1 1-7.8 7.8 5.5 5.5 0 0 1 7.8-7.8Zm0 0L15.5 7.5m0 0 3 3L22 7l-3-3m-3.5 3.5L19 4',
  assistant: 'M12 8V4H8M4 12h16v8H4zM2 14h2M20 14h2M9 16h.01M15 16h.01M8 12V8h8v4',
  pen: 'M12 20h9M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4Z',
  arrowLeft: 'M19 12H5M12 19l-7-7 7-7',
  arrowRight: 'M5 12h14M12 5l7 7-7 7',
  arrowUp: 'M12 19V5M5 12l7-7 7 7',
  arrowDown: 'M12 5v14M19 12l-7 7-7-7',
  move: 'M8 3 4 7l4 4M4 7h16M16 21l4-4-4-4M20 17H4',
  close: 'M18 6 6 18M6 6l12 12',
  external: 'M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6',
  warning: 'M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0ZM12 9v4M12 17h.01',
  check: 'M20 6 9 17l-5-5',
  info: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM12 16v-4M12 8h.01',
  clock: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20ZM12 6v6l4 2',
  unplug:
    'M19 5l3-3M2 22l3-3M6.3 20.3a2.4 2.4 0 0 0 3.4 0L12 18l-6-6-2.3 2.3a2.4 2.4 0 0 0 0 3.4ZM7.5 13.5 10 11M10.5 16.5 13 14M12 6l6 6 2.3-2.3a2.4 2.4 0 0 0 0-3.4l-2.6-2.6a2.4 2.4 0 0 0-3.4 0Z',
  feed: 'M4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16M5 20a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z',
  webhook: 'M18 16.1a4 4 0 1 1-4 4H8M9 7.1a4 4 0 1 1 5.2 5.6L17 18M6 17a4 4 0 0 1-1.9-6.8l2.9 5',
  queue: 'M4 6h11M4 12h11M4 18h7M18 9v10M15 16l3 3 3-3',
  wave: 'M2 12c2.5-4 5-4 7.5 0s5 4 7.5 0 3.5-3 5-2M2 18c2.5-4 5-4 7.5 0s5 4 7.5 0 3.5-3 5-2M2 6c2.5-4 5-4 7.5 0s5 4 7.5 0 3.5-3 5-2',
} as const;

export type IconName = keyof typeof paths;

export function Icon({
  name,
  label,
  size = 20,
  className,
}: {
  name: IconName;
  /** An accessible name when the icon stands alone; omitted, the icon is hidden from assistive tech. */
  label?: string;
  size?: number;
  className?: string;
}) {
  const common = {
    className: className ? `icon ${className}` : 'icon',
    width: size,
    height: size,
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    strokeWidth: 1.8,
    strokeLinecap: 'round' as const,
    strokeLinejoin: 'round' as const,
    focusable: 'false' as const,
  };
  if (label) {
    return (
      <svg {...common} role="img" aria-label={label}>
        <title>{label}</title>
        <path d={paths[name]} />
      </svg>
    );
  }
  return (
    <svg {...common} aria-hidden="true">
      <path d={paths[name]} />
    </svg>
  );
}
