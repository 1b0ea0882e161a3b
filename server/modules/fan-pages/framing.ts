import type { DbOrTx } from '@/db';
import { partnerOfEvent } from '@/server/modules/catalog';
import { returnOriginsOf } from '@/server/modules/partners';
import { partnerOfTicket } from '@/server/modules/tickets';
import { processCache } from '@/server/lib/short-cache';

/*
 * Which origins may frame a fan page. A partner may embed three pages in its own site: the
 * buy page (/market/<eventPk>), the resale entry (/resale/<partnerId>) and the sell page
 * (/sell/<ticketPk>); only its allowed return origins may frame them. Every other page (the dashboard,
 * checkout, payment, transfer, unlisting) is never framed.
 *
 * The proxy answers the header, since a Next.js page cannot set its own response headers; it knows only
 * the URL, so the partner is looked up by the id the URL names. An event's or ticket's partner never
 * changes, so that answer is remembered for good (bounded); the partner's origins for a few seconds
 * (partners/return-origins.ts).
 */

const EMBEDDABLE = /^\/(market|resale|sell)\/([A-Za-z0-9_]{1,64})\/?$/;
const PARTNER_CACHE_MAX = 20_000;

// Shared by the process's bundles, like the origins.
const partnerCache = processCache<string>('framed-page-partner', { max: PARTNER_CACHE_MAX });

async function partnerOfPage(kind: string, id: string, db: DbOrTx): Promise<string | null> {
  if (kind === 'resale') return id;
  const key = `${kind} ${id}`;
  const known = partnerCache.get(key);
  if (known) return known;
  const partnerId = kind === 'market' ? await partnerOfEvent(id, db) : await partnerOfTicket(id, db);
  // Unknown ids are not remembered: the page answers 404 anyway, and the id may exist a moment later.
  if (partnerId) {
    partnerCache.set(key, partnerId);
  }
  return partnerId;
}

/**
 * The origins that may frame this page: the partner's allowed return origins for an embeddable page,
 * else none (an empty list: `frame-ancestors 'none'`).
 */
export async function framingOriginsOf(pathname: string, db: DbOrTx): Promise<string[]> {
  const match = EMBEDDABLE.exec(pathname);
  if (!match) return [];
  const partnerId = await partnerOfPage(match[1], match[2], db);
  return (partnerId && (await returnOriginsOf(partnerId, db))) || [];
}
