import { cookies } from 'next/headers';
import { currentFanSession, FAN_SESSION_COOKIE, type FanSession } from '@/server/modules/fans';

/** The signed-in fan on a page of this partner, or null (a session of another partner counts as none). */
export async function fanOf(partnerId: string): Promise<FanSession | null> {
  const session = await currentFanSession((await cookies()).get(FAN_SESSION_COOKIE)?.value);
  return session && session.partnerId === partnerId ? session : null;
}
