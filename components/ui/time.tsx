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
