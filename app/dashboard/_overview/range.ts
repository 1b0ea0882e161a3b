const DAY = 24 * 3600_000;
const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The overview's default range: the last 30 UTC days, today included. */
export function lastThirtyDays(now = Date.now()): { from: string; to: string } {
  return { from: utcDay(now - 29 * DAY), to: utcDay(now) };
}
