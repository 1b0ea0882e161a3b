import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db';
import { DEFAULT_FAN_PATH, endFanSession, FAN_SESSION_COOKIE } from '@/server/modules/fans';

/** `POST /auth/signout`: ends the fan session of this browser and forgets its cookie. */
export async function POST(req: NextRequest): Promise<NextResponse> {
  await endFanSession(req.cookies.get(FAN_SESSION_COOKIE)?.value, getDb());
  const res = new NextResponse(null, { status: 303, headers: { location: DEFAULT_FAN_PATH } });
  res.cookies.delete({ name: FAN_SESSION_COOKIE, path: '/' });
  return res;
}
