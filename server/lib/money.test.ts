import { describe, expect, it } from 'vitest';
import { currencyExponent, decimalString, isCurrencyCode, toMinorUnits } from './money';

describe('money', () => {
  it.each([
    [45.5, 'EUR', 4550],
    ['45.50', 'EUR', 4550],
    ['045.5', 'EUR', 4550],
    [0, 'EUR', 0],
    [1200, 'JPY', 1200],
    ['1200.00', 'JPY', 1200],
    ['1.234', 'KWD', 1234],
  ])('%s %s is %i minor units', (value, currency, minor) => {
    expect(toMinorUnits(value, currency)).toEqual({ minor });
  });

  it('refuses amounts it cannot represent exactly instead of rounding them', () => {
    expect(toMinorUnits(0.1 + 0.2, 'EUR')).toEqual({
      error: 'has more than 2 decimal places, which EUR does not allow',
    });
    expect(toMinorUnits('12.5', 'JPY')).toEqual({ error: 'has more than 0 decimal places, which JPY does not allow' });
    expect(toMinorUnits(1e21, 'EUR')).toEqual({ error: 'must be a number' });
    expect(toMinorUnits('99999999999999999', 'EUR')).toEqual({ error: 'is too large' });
    expect(toMinorUnits('1.', 'EUR')).toEqual({ error: 'must be a number' });
    expect(toMinorUnits('1e3', 'EUR')).toEqual({ error: 'must be a number' });
  });

  it('knows currency codes and exponents', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(decimalString(' 007.10 ')).toBe('7.10');
  });
});
