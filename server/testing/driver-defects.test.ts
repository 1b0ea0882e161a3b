import { describe, expect, it } from 'vitest';
import { isKnownDriverDefect } from './driver-defects';

const typeFetch = `
      select b.oid, b.typarray
      from pg_catalog.pg_type a
      left join pg_catalog.pg_type b on b.oid = a.typelem`;

describe('isKnownDriverDefect', () => {
  it("forgives only the driver's array-type fetch cut by a terminated backend", () => {
    expect(isKnownDriverDefect({ code: '57P01', query: typeFetch })).toBe(true);
    expect(isKnownDriverDefect({ code: '57P01', query: 'insert into tickets values ($1)' })).toBe(false);
    expect(isKnownDriverDefect({ code: '23505', query: typeFetch })).toBe(false);
    expect(isKnownDriverDefect(new Error('terminating connection due to administrator command'))).toBe(false);
    expect(isKnownDriverDefect(null)).toBe(false);
  });
});
