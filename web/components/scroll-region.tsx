import type { ReactNode } from 'react';

/** A region that scrolls sideways on narrow screens: focusable, so keyboards can scroll it too (axe scrollable-region-focusable). */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard
    <section className={className} style={{ overflowX: 'auto' }} tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
