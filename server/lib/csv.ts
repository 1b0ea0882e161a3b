/** A plain decimal number (an amount such as `-12.5`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One CSV field: quoted when needed; a cell beginning with =, +, -, @, a tab or a CR is defused with a
 * leading ' so spreadsheets do not run it (OWASP's CSV injection rule), except a plain number, which
 * stays a number (a refund's negative amount must still add up).
 */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !PLAIN_NUMBER.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (CRLF-terminated) of fields. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** UTF-8's byte-order mark: without it a spreadsheet program reads the file as Latin-1 ("Ã±" for "ñ"). */
const CSV_BOM = '\uFEFF';

/**
 * A CSV download streamed a chunk at a time from `chunks` (each export's pages), never cached; it starts
 * with the BOM.
 */
export function csvResponse(chunks: AsyncIterator<string>, filename: string): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM));
    },
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}
