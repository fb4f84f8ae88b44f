import { ScrollRegion } from '../scroll-region.tsx';
import { formatCount, weekdayNames } from './labels.ts';

export interface HeatSlot {
  weekday: number;
  hour: number;
  score: number;
  posts: number;
}

/**
 * The week as a grid of hours, each cell shaded by the median engagement of posts published then.
 * It is a real table: every cell states its figures, so screen readers read the same as the eye.
 */
export function BestTimesHeatmap({ slots, accountName }: { slots: HeatSlot[]; accountName: string }) {
  const max = Math.max(1, ...slots.map((s) => s.score));
  const at = new Map(slots.map((s) => [s.weekday * 24 + s.hour, s]));
  const hours = Array.from({ length: 24 }, (_, h) => h);
  return (
    <ScrollRegion className="heatmap-scroll" label={`Best times grid for ${accountName}`}>
      <table className="heatmap" data-testid="best-times-heatmap">
        <caption className="sr-only">
          Median engagement per post by weekday and hour for {accountName}; empty cells had no posts.
        </caption>
        <thead>
          <tr>
            <td />
            {hours.map((h) => (
              <th key={h} scope="col" abbr={`${h}:00`}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weekdayNames.map((day, w) => (
            <tr key={day}>
              <th scope="row" abbr={day}>
                {day.slice(0, 3)}
              </th>
              {hours.map((h) => {
                const slot = at.get((w + 1) * 24 + h);
                const level = slot ? Math.max(1, Math.round((slot.score / max) * 4)) : 0;
                return (
                  <td key={h} className={`heat-${level}`}>
                    {slot ? (
                      <span className="sr-only">
                        median {formatCount(slot.score)}, {slot.posts} post{slot.posts === 1 ? '' : 's'}
                      </span>
                    ) : (
                      <span className="sr-only">no posts</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
