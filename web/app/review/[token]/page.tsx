import type { Metadata } from 'next';
import { CenteredCard } from '#components/consent-card.tsx';
import { ReviewClient } from '#components/review/review-client.tsx';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = {
  title: 'Review a post',
  referrer: 'no-referrer',
  robots: { index: false, follow: false },
};

/**
 * `/review/{token}` (docs/workspaces.md#review-links): a client without an account sees the post
 * per account, comments, and approves or requests changes under a name they type. Everything goes
 * through `/api/v1/review/{token}` (rate-limited; unknown, revoked or expired links say so).
 */
export default async function ReviewPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <CenteredCard wide>
      <ReviewClient token={token} />
    </CenteredCard>
  );
}
