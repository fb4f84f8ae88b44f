import { formatDateTime } from '../lib/time.ts';

/** What the timeline shows of each event (the server's PostEventView has this shape). */
interface TimelineEntry {
  id: string;
  actor: string | null;
  action: string;
  description: string;
  detail: Record<string, unknown>;
  createdAt: string;
  event: { actor?: { name: string }; error?: { message: string; hint?: string } };
}

/** The post page's timeline: what happened to the post, oldest first, with who did it and why it failed. */
export function PostTimeline({
  history,
  timezone,
  locale,
}: {
  history: TimelineEntry[];
  timezone: string;
  locale: string;
}) {
  if (history.length === 0) return null;
  return (
    <section className="card" aria-labelledby="history-title">
      <div className="card-head">
        <h2 id="history-title">Timeline</h2>
      </div>
      <ol className="history" data-testid="post-history">
        {history.map((event) => (
          <li key={event.id} className="small" data-event-type={event.action}>
            <strong>{event.event.actor?.name ?? 'Postwave'}</strong>{' '}
            {event.actor === 'assistant' && <span className="muted">(assistant) </span>}
            {event.description}
            {event.detail.confirmedBy === 'elicitation' && ' after you confirmed'}
            {event.event.error && (
              <>
                <br />
                <span>{event.event.error.hint}</span>{' '}
                <span className="muted">{event.event.error.message}</span>
              </>
            )}
            <br />
            <time className="muted" dateTime={event.createdAt}>
              {formatDateTime(event.createdAt, timezone, locale)}
            </time>
          </li>
        ))}
      </ol>
    </section>
  );
}
