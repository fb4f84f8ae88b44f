import { redirect } from 'next/navigation';
import { currentUser } from '#server/ui/session.ts';

export default async function Home() {
  redirect((await currentUser()) ? '/compose' : '/signin');
}
