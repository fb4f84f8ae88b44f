import { CenteredCard } from '#components/consent-card.tsx';
import { NotFoundBody } from '#components/not-found-body.tsx';

export const metadata = { title: 'Not found' };

/** An address the Scheduler has nothing at: in the app's own style, with a way back (not Next's bare default). */
export default function NotFound() {
  return (
    <CenteredCard>
      <NotFoundBody />
    </CenteredCard>
  );
}
