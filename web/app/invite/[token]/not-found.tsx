import { ErrorCard } from '../../../components/consent-card.tsx';

/** `/invite/{token}` for a link that was used, revoked, has expired or never existed: a 404 that says so. */
export default function InvitationNotFound() {
  return (
    <ErrorCard
      title="This invitation is no longer valid"
      message="It was used, revoked or has expired. Ask for a new invitation."
    />
  );
}
