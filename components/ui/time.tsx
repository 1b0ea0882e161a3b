const FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/**
 * A timestamp in one fixed format and zone (UTC), so the server render and the browser agree and
 * staff in different places read the same value.
 */
export function Time({ value, fallback = '—' }: { value: Date | string | null | undefined; fallback?: string }) {
  if (!value) return <span className="muted">{fallback}</span>;
  const date = typeof value === 'string' ? new Date(value) : value;
  return <time dateTime={date.toISOString()}>{FORMAT.format(date)}</time>;
}
