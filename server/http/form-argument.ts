import { notFound } from 'next/navigation';

/** Longer than any field of a fan form (the longest, an e-mail or a name, is a few hundred characters). */
const MAX_FIELD_LENGTH = 10_000;

/**
 * The start of every server action of the fan pages: its argument must be the form the page posts, each
 * field a string PostgreSQL can take (no NUL) of sane length. Anyone can post anything to an action; a
 * crafted call is answered 404 (Next.js's not-found, without an error log line) rather than failing deep
 * inside with a 500.
 */
export function assertForm(value: unknown): asserts value is FormData {
  if (!(value instanceof FormData)) notFound();
  for (const [, field] of value) {
    if (typeof field !== 'string' || field.length > MAX_FIELD_LENGTH || field.includes('\0')) notFound();
  }
}
