import { messagesFor } from '@/server/lib/i18n/messages';
import type { Locale } from '@/server/lib/i18n/locales';
import { escapeHtml } from '@/server/lib/escape-html';

/**
 * Bad input to pages and route handlers outside /v1, refused by the proxy before Next.js or a page sees
 * it: each of these would otherwise be a 500, some with an error log line. Next.js fails decoding a
 * path that is not UTF-8; a NUL reaches PostgreSQL, which refuses it in any text parameter; a malformed
 * multipart body fails Next.js's server-action parsing; and a server action posted from another site is
 * refused by Next.js with an error. Here each is a 400 or 403 with a branded page instead.
 */

export type Refusal = { status: 400 | 403; reason: string };

/** No id, token or name in a page path is this long; a longer segment names nothing. */
const MAX_SEGMENT_LENGTH = 512;

// C0 controls and DEL: never in a real page address; NUL is refused by PostgreSQL in any text value.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Whether every segment of a percent-encoded path decodes (invalid UTF-8 such as `%FF` does not). */
export function decodable(pathname: string): boolean {
  return decodedSegments(pathname) !== null;
}

function decodedSegments(pathname: string): string[] | null {
  try {
    return pathname.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    return null;
  }
}

/** What is wrong with a request's address, or null: a path that does not decode, control characters, a too-long segment. */
export function addressRefusal(url: URL): Refusal | null {
  const segments = decodedSegments(url.pathname);
  if (!segments) return { status: 400, reason: 'the path is not valid UTF-8 once percent-decoded' };
  if (segments.some((s) => CONTROL.test(s))) return { status: 400, reason: 'the path contains control characters' };
  if (segments.some((s) => s.length > MAX_SEGMENT_LENGTH)) {
    return { status: 400, reason: `a path segment is longer than ${MAX_SEGMENT_LENGTH} characters` };
  }
  for (const [name, value] of url.searchParams) {
    if (CONTROL.test(name) || CONTROL.test(value))
      return { status: 400, reason: 'a query parameter contains control characters' };
  }
  return null;
}

/** A POST Next.js would treat as a server action: the action header, or a form body (a form posted without script). */
export function isServerActionPost(req: Request): boolean {
  if (req.method !== 'POST') return false;
  const type = req.headers.get('content-type') ?? '';
  return (
    req.headers.has('next-action') ||
    type.startsWith('multipart/form-data') ||
    type === 'application/x-www-form-urlencoded'
  );
}

/**
 * A server action from another site (cross-site request forgery): its Origin is not this host. Same rule
 * as Next.js's own check (the Origin's host against X-Forwarded-Host, else Host; no Origin is let through,
 * as browsers always send one on a POST), answered here as a 403 without an error log line. An Origin that
 * is not a URL at all (Next.js would fail parsing it) is refused too.
 */
export function foreignOriginRefusal(req: Request): Refusal | null {
  const origin = req.headers.get('origin');
  if (origin === null) return null;
  const forwarded = req.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  const host = forwarded || req.headers.get('host');
  let originHost: string;
  try {
    originHost = origin === 'null' ? 'null' : new URL(origin).host;
  } catch {
    return { status: 403, reason: 'the Origin header is not a URL' };
  }
  return originHost === host ? null : { status: 403, reason: 'a server action from another origin' };
}

/**
 * Server-action ids are 42 hex digits (Next.js 16); another id makes Next.js log an error before answering.
 * A well-formed id this build does not know is left to Next.js (a 404 and a warning: a client from another
 * deployment sends those).
 */
export function actionIdRefusal(req: Request): Refusal | null {
  const id = req.headers.get('next-action');
  if (id === null || /^[0-9a-f]{42}$/.test(id)) return null;
  return { status: 400, reason: 'the Next-Action header is not a server action id' };
}

/**
 * A server-action body Next.js would fail to read with a 500 and an error log line: a multipart body that
 * does not parse, or another body of an action call that is not JSON (Next.js decodes it as JSON).
 */
export async function actionBodyRefusal(req: Request): Promise<Refusal | null> {
  if ((req.headers.get('content-type') ?? '').startsWith('multipart/form-data')) {
    try {
      await req.clone().formData();
      return null;
    } catch {
      return { status: 400, reason: 'the multipart/form-data body is malformed' };
    }
  }
  if (!req.headers.has('next-action')) return null;
  try {
    JSON.parse(await req.clone().text());
    return null;
  } catch {
    return { status: 400, reason: 'the server action body is not JSON' };
  }
}

/**
 * The branded page of a refused request, in the fan's language on fan pages (English elsewhere). A plain
 * document: the proxy cannot render React, and the page must not depend on anything the bad request named.
 */
export function refusalPage(refusal: Refusal, locale: Locale, fanPage: boolean): Response {
  const m = messagesFor(locale).requestError;
  const copy = refusal.status === 403 ? m.forbidden : m.badRequest;
  const home = fanPage ? { href: '/me', label: messagesFor(locale).notFound.home } : { href: '/', label: m.home };
  return new Response(brandedDocument(locale, refusal.status, copy, home), {
    status: refusal.status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * The branded 503 of a page asked for while the database is unreachable (server/lib/db-health.ts), in the
 * fan's language: the way on is the same address again.
 */
export function outageDocument(locale: Locale, path: string): string {
  const m = messagesFor(locale).requestError.unavailable;
  return brandedDocument(locale, 503, m, { href: path, label: m.retry });
}

/** Encore's plain branded document: a title, a sentence and one link on. */
function brandedDocument(
  locale: Locale,
  status: number,
  copy: { title: string; body: string },
  next: { href: string; label: string },
): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(copy.title)} · Encore</title><link rel="icon" href="/icon.svg">
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#14171f;background:#f4f6f9}
main{max-width:32rem;margin:4rem auto;padding:2rem;background:#fff;border:1px solid #dfe3ea;border-radius:12px}
header{display:flex;align-items:center;gap:.5rem;font-weight:600;margin-bottom:1.5rem}
h1{font-size:1.5rem;line-height:1.2;margin:0 0 .75rem}p{color:#545c6b}
a.btn{display:inline-block;margin-top:1rem;padding:.6rem 1rem;border-radius:8px;background:#0a58d6;color:#fff;text-decoration:none}</style>
</head><body><main data-testid="request-error" data-status="${status}">
<header><img src="/icon.svg" alt="" width="28" height="28"> Encore</header>
<h1>${escapeHtml(copy.title)}</h1><p>${escapeHtml(copy.body)}</p>
<a class="btn" href="${escapeHtml(next.href)}">${escapeHtml(next.label)}</a></main></body></html>`;
}
