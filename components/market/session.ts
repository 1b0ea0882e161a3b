import { cookies } from 'next/headers';
import { cache } from 'react';
import { getDb } from '@/db';
import { currentFanSession, FAN_SESSION_COOKIE, type FanSession } from '@/server/modules/fans';

// Once per request: a page and the shell around it both ask who is signed in.
const sessionOfRequest = cache(async () =>
  currentFanSession((await cookies()).get(FAN_SESSION_COOKIE)?.value, getDb()),
);

/** The signed-in fan on a page of this partner, or null (a session of another partner counts as none). */
export async function fanOf(partnerId: string): Promise<FanSession | null> {
  const session = await sessionOfRequest();
  return session && session.partnerId === partnerId ? session : null;
}
