import { getDb } from '@/db';
import { publicBaseUrl } from '@/server/env';
import { eventPageInfo } from '@/server/modules/catalog';
import { secureTicketPage } from '@/server/modules/tickets';

/** RFC 5545 text: backslash, semicolon, comma and newlines escaped; lines folded at 75 octets. */
function text(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}
function fold(line: string): string {
  const out: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest) > 75) {
    let n = 75;
    while (Buffer.byteLength(rest.slice(0, n)) > 75) n--;
    out.push(rest.slice(0, n));
    rest = ` ${rest.slice(n)}`;
  }
  out.push(rest);
  return out.join('\r\n');
}
const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * "Add to calendar" of the secure view: the show as an iCalendar event (UTC start, 3 hours long when
 * the partner gives no end), with the venue and the ticket's link, never its code. A previous holder's
 * link has none (the ticket is no longer theirs).
 */
export async function GET(_req: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const ticket = await secureTicketPage(token, getDb());
  if (!ticket || ticket.previous) return new Response('Not found', { status: 404 });
  const event = await eventPageInfo(ticket.eventPk, getDb());
  const show = event?.shows.find((s) => s.showPk === ticket.showPk);
  const venue = show ? [show.venue.name, show.venue.address].filter(Boolean).join(', ') : '';
  const url = `${publicBaseUrl()}/t/${token}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Encore//Secure ticket//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:${ticket.pk}@encore`,
    `DTSTAMP:${stamp(new Date())}`,
    `DTSTART:${stamp(ticket.startsAt)}`,
    'DURATION:PT3H',
    `SUMMARY:${text(ticket.show && ticket.show !== ticket.event ? `${ticket.event} — ${ticket.show}` : ticket.event)}`,
    ...(venue ? [`LOCATION:${text(venue)}`] : []),
    `DESCRIPTION:${text(`Your ticket: ${url}`)}`,
    `URL:${url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return new Response(`${lines.map(fold).join('\r\n')}\r\n`, {
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="ticket-${ticket.pk}.ics"`,
      'cache-control': 'private, no-store',
    },
  });
}
