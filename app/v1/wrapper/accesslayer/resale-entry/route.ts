import { getDb } from '@/db';
import { widgetPreflight } from '@/server/http/publishable';
import { handle } from '@/server/http/route';
import { resaleEntry, resaleEntryRoute } from '@/server/modules/access-layer';

// Reads; with `autologin=true` it mints the fans' sign-in tokens on its links, nothing else.
export const GET = handle(resaleEntryRoute, ({ partner, query }) => resaleEntry(partner, query, getDb()));

// The browser's preflight before `<encore-sell>`'s GET with a publishable key (server/http/publishable.ts).
export const OPTIONS = widgetPreflight(resaleEntryRoute.path, ['GET']);
