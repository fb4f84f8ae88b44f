import { NotFoundBody } from '#components/not-found-body.tsx';

export const metadata = { title: 'Not found' };

/** `notFound()` inside the app (a deleted post, one of another workspace): the navigation stays. */
export default function AppNotFound() {
  return (
    <div className="page page-narrow">
      <NotFoundBody />
    </div>
  );
}
