import { z } from 'zod';
import { badRequest } from '@/server/lib/errors';

/*
 * A reporting period: whole UTC days, `from` to `to` inclusive (as staff pick them), read as the
 * half-open range [from 00:00, to + 1 day 00:00) in SQL.
 */

const DAY = 24 * 3600_000;
/** The longest period a report or an export covers (a year and a day, for leap years). */
const MAX_DAYS = 367;

const isoDay = (field: string) =>
  z
    .string({ error: `${field} must be a date (YYYY-MM-DD)` })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${field} must be a date (YYYY-MM-DD)`)
    .refine(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      {
        message: `${field} is not a calendar date`,
      },
    );

export const periodInput = z
  .object({ from: isoDay('from'), to: isoDay('to') })
  .refine((p) => p.to >= p.from, { path: ['to'], message: 'to must not be before from' })
  .refine((p) => Date.parse(`${p.to}T00:00:00Z`) - Date.parse(`${p.from}T00:00:00Z`) < MAX_DAYS * DAY, {
    path: ['to'],
    message: `A period covers at most ${MAX_DAYS} days`,
  });
export type PeriodInput = z.input<typeof periodInput>;

export interface Period {
  from: string;
  to: string;
  /** Inclusive start (from, 00:00 UTC). */
  start: Date;
  /** Exclusive end (the day after `to`, 00:00 UTC). */
  end: Date;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The period of these days, or a 400 naming the bad field. */
export function periodOf(input: PeriodInput): Period {
  const parsed = periodInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue.path[0] ?? 'from');
    throw badRequest(issue.message, [{ path: field, message: issue.message }]);
  }
  const { from, to } = parsed.data;
  return { from, to, start: new Date(`${from}T00:00:00Z`), end: new Date(Date.parse(`${to}T00:00:00Z`) + DAY) };
}

/** This week, Monday to Sunday (UTC), the day `now` falls in: the default period of the money page. */
export function thisWeek(now = new Date()): { from: string; to: string } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = midnight - ((now.getUTCDay() + 6) % 7) * DAY;
  return { from: day(new Date(monday)), to: day(new Date(monday + 6 * DAY)) };
}
