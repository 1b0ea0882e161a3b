import { describe, expect, it } from 'vitest';
import { formatInVenue, formatUtc } from '@/components/ui/time';

describe('show dates at the venue', () => {
  const date = new Date('2027-06-01T23:30:00Z');

  it('uses the location time zone when there is one (daylight saving included)', () => {
    expect(formatInVenue(date, 'America/Argentina/Buenos_Aires', '2027-06-01T20:30:00-03:00')).toBe(
      '1 Jun 2027, 20:30 America/Argentina/Buenos_Aires',
    );
    expect(formatInVenue(date, 'Europe/Madrid')).toBe('2 Jun 2027, 01:30 Europe/Madrid');
    expect(formatInVenue(new Date('2027-01-15T12:00:00Z'), 'Europe/Madrid')).toBe('15 Jan 2027, 13:00 Europe/Madrid');
  });

  it('falls back to the offset the date was sent with, and says nothing more for UTC', () => {
    expect(formatInVenue(date, null, '2027-06-02T05:00:00+05:30')).toBe('2 Jun 2027, 05:00 UTC+05:30');
    expect(formatInVenue(date, 'Not/AZone', '2027-06-01T20:30:00-03:00')).toBe('1 Jun 2027, 20:30 UTC-03:00');
    expect(formatInVenue(date, null, '2027-06-01T23:30:00Z')).toBeNull();
    expect(formatUtc(date)).toBe('1 Jun 2027, 23:30 UTC');
  });
});
