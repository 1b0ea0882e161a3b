import { getDb } from '@/db';
import { requestIdOf } from '@/server/http/request-id';
import { seatMapDocument } from '@/server/modules/fan-pages';

/*
 * The buy page's seat map as a document of its own, shown in a frame on the page (../seat-map.tsx;
 * server/modules/fan-pages/seat-map.ts makes it, with its own headers: proxy.ts leaves this path alone).
 * Encore's HTTP server answers it before Next.js (server/http/listener.ts); this route answers under
 * `next dev`, and whenever Next.js is asked directly.
 */
export async function GET(req: Request) {
  const doc = await seatMapDocument(new URL(req.url), getDb());
  return new Response(doc.body, { status: doc.status, headers: { ...doc.headers, 'x-request-id': requestIdOf(req) } });
}
