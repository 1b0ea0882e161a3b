const OPTIONS: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
};
const FORMAT = new Intl.DateTimeFormat('en-GB', OPTIONS);
const FORMAT_SECONDS = new Intl.DateTimeFormat('en-GB', { ...OPTIONS, second: '2-digit' });

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
  const full = (seconds || isCompact ? FORMAT_SECONDS : FORMAT).format(date);
  return (
    <time dateTime={date.toISOString()} title={isCompact ? full : undefined}>
      {isCompact ? compact(date) : full}
    </time>
  );
}
