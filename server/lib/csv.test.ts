import { describe, expect, it } from 'vitest';
import { csvField, csvLine, csvResponse } from './csv';

async function* chunks(...parts: string[]) {
  yield* parts;
}

describe('csvField', () => {
  it('keeps a plain number a number, negative ones included', () => {
    expect([-12.5, '-12.5', '-3', 0, '42.10'].map(csvField)).toEqual(['-12.5', '-12.5', '-3', '0', '42.10']);
  });

  it('defuses a cell a spreadsheet would run: =, +, -, @, a tab or a CR first', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+34 600 000 000')).toBe("'+34 600 000 000");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('-cmd|calc')).toBe("'-cmd|calc");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('Begoña Núñez')).toBe('Begoña Núñez');
  });
});

describe('csvResponse', () => {
  it('starts with the UTF-8 byte-order mark, so a spreadsheet reads "ñ" as "ñ"', async () => {
    const res = csvResponse(chunks(csvLine(['name', 'amount']), csvLine(['Begoña Núñez', -55.5])), 'x.csv');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Decoded without stripping the mark: it comes first, once, and the rest is intact UTF-8.
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe(
      '\uFEFFname,amount\r\nBegoña Núñez,-55.5\r\n',
    );
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });
});
