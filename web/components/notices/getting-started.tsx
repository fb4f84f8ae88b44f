import Link from 'next/link';
import type { GettingStartedSteps } from '#server/ui/schema.ts';
import { Icon } from '../icons.tsx';
import { Dismissible } from './dismissible.tsx';

/**
 * A short guided start, as the best peers have: three steps, each a link, ticked off as they are
 * done; it disappears once all are done or when the person closes it (issue 30).
 */
export function GettingStarted({ steps }: { steps: GettingStartedSteps }) {
  if (steps.connected && steps.wrote && steps.scheduled) return null;
  const items = [
    { done: steps.connected, href: '/accounts', text: 'Connect your first account' },
    { done: steps.wrote, href: '/compose', text: 'Write your first post' },
    { done: steps.scheduled, href: '/compose', text: 'Schedule it' },
  ];
  const next = items.findIndex((i) => !i.done);
  return (
    <Dismissible id="getting-started" label="Getting started" className="card getting-started">
      <div className="stack" style={{ gap: 8 }}>
        <p className="getting-started-title">Getting started</p>
        <ol className="getting-started-steps">
          {items.map((item, i) => (
            <li key={item.text} data-done={item.done} aria-current={i === next ? 'step' : undefined}>
              <span className="step-mark" aria-hidden="true">
                {item.done ? <Icon name="check" size={14} /> : i + 1}
              </span>
              {item.done ? (
                <span>
                  {item.text} <span className="sr-only">(done)</span>
                </span>
              ) : (
                <Link href={item.href}>{item.text}</Link>
              )}
            </li>
          ))}
        </ol>
      </div>
    </Dismissible>
  );
}
