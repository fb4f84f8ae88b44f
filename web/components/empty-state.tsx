import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons.tsx';

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  /** One of the app's SVG icons (a character would render as a box where the font lacks it). */
  icon: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="empty">
      <span className="empty-icon" aria-hidden="true">
        <Icon name={icon} size={24} />
      </span>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
      {action}
    </div>
  );
}
