import { cookies } from 'next/headers';
import { dismissedCookie } from '../../components/notices/dismissed-cookie.ts';

/** Whether the person closed the notice `id` (components/notices/dismissible.tsx sets the cookie). */
export async function isDismissed(id: string): Promise<boolean> {
  return (await cookies()).get(dismissedCookie(id))?.value === '1';
}
