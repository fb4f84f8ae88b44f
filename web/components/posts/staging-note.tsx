import { formatDateTime } from '#components/lib/time.ts';
import type { TargetStaging } from '#server/staging/schema.ts';

/**
 * One account's staging (its video uploaded to the platform ahead of the due time), in words.
 * Only while the post is still to be published: afterwards the result says what happened.
 */
export function StagingNote({
  staging,
  postStatus,
  timezone,
  locale,
}: {
  staging: TargetStaging | undefined;
  postStatus: string;
  timezone: string;
  locale?: string;
}) {
  if (!staging || postStatus !== 'scheduled') return null;
  const text =
    staging.status === 'staging'
      ? 'Uploading the media to the platform ahead of time…'
      : staging.status === 'staged'
        ? `Media uploaded ahead of time; only the final step happens at the scheduled time${
            staging.expiresAt
              ? ` (the platform keeps it until ${formatDateTime(staging.expiresAt, timezone, locale)})`
              : ''
          }.`
        : `Uploading ahead of time did not work${
            staging.error ? ` (${staging.error.message})` : ''
          }; the media will be uploaded at the scheduled time instead.`;
  return (
    <p className="small muted" data-testid="staging" data-staging={staging.status}>
      {text}
    </p>
  );
}
