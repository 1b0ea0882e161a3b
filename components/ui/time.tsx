const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `1 Mar 2026, 14:05 UTC` built by hand from the UTC fields, not with Intl: Node's and the browser's
 * ICU data differ (separators such as ", " vs " at ", narrow no-break spaces), and any difference
 * between the server render and the client render is a React hydration error.
 */
export function formatUtc(date: Date, seconds = false): string {
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}${seconds ? `:${pad(date.getUTCSeconds())}` : ''}`;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${time} UTC`;
}

/** `2026-03-01 14:05:09`, for dense tables whose column header names the zone (UTC). */
function compact(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A timestamp in one fixed format and zone (UTC), so the server render and the browser agree and
 * staff in different places read the same value. `seconds` where they matter (delivery attempts);
 * `compact` in dense tables, with the full form as its tooltip.
 */
export function Time({
  value,
  fallback = '—',
  seconds = false,
  compact: isCompact = false,
}: {
  value: Date | string | null | undefined;
  fallback?: string;
  seconds?: boolean;
  compact?: boolean;
}) {
  if (!value) return <span className="muted">{fallback}</span>;
  const date = typeof value === 'string' ? new Date(value) : value;
  const full = formatUtc(date, seconds || isCompact);
  return (
    <time dateTime={date.toISOString()} title={isCompact ? full : undefined}>
      {isCompact ? compact(date) : full}
    </time>
  );
}

const OFFSET = /([+-])(\d{2}):?(\d{2})$|Z$/i;

/**
 * A date as the venue reads it: in its IANA time zone when the location names one, else at the
 * UTC offset the partner sent the date with (`2027-06-01T20:00:00-03:00`). Built from numeric parts
 * only (formatToParts), so Node and the browser render the same text.
 */
export function formatInVenue(date: Date, timeZone?: string | null, sentAs?: string | null): string | null {
  if (timeZone) {
    try {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', {
          timeZone,
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          hourCycle: 'h23',
        })
          .formatToParts(date)
          .map((p) => [p.type, p.value]),
      );
      const month = MONTHS[Number(parts.month) - 1];
      return `${Number(parts.day)} ${month} ${parts.year}, ${pad(Number(parts.hour) % 24)}:${parts.minute} ${timeZone}`;
    } catch {
      // An unknown zone (validated on input, but data may predate that): fall back to the offset.
    }
  }
  const m = sentAs ? OFFSET.exec(sentAs) : null;
  if (!m || !m[1]) return null; // no offset, or UTC itself: the UTC form says it all
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  const local = new Date(date.getTime() + minutes * 60_000);
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
  return `${local.getUTCDate()} ${MONTHS[local.getUTCMonth()]} ${local.getUTCFullYear()}, ${time} UTC${m[1]}${m[2]}:${m[3]}`;
}

/** A show's date at the venue, next to UTC: `1 Jun 2027, 17:00 America/Lima · 1 Jun 2027, 22:00 UTC`. */
export function VenueTime({
  value,
  timeZone,
  sentAs,
}: {
  value: Date | string;
  timeZone?: string | null;
  sentAs?: string | null;
}) {
  const date = typeof value === 'string' ? new Date(value) : value;
  const venue = formatInVenue(date, timeZone, sentAs);
  return (
    <>
      {venue ? (
        <>
          <time dateTime={date.toISOString()} data-testid="venue-time">
            {venue}
          </time>{' '}
          ·{' '}
        </>
      ) : null}
      <Time value={date} />
    </>
  );
}

/** A table cell holding a compact timestamp that never wraps (dense lists whose header names UTC). */
export function TimeCell({ value, fallback }: { value: Date | string | null | undefined; fallback?: string }) {
  return (
    <td className="nowrap">
      <Time value={value} compact fallback={fallback} />
    </td>
  );
}
