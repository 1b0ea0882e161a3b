import { describe, expect, it } from 'vitest';
import { assertForm } from './form-argument';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

/** Next.js's not-found, thrown by notFound(): a 404 answer without an error log line. */
const NOT_FOUND = /NEXT_HTTP_ERROR_FALLBACK;404/;

describe('assertForm', () => {
  it('lets the form a page posts through', () => {
    expect(() => assertForm(form({ email: 'ana@example.com', partner: 'ptr_1' }))).not.toThrow();
  });

  it('answers not-found for anything else: another argument, a NUL, an over-long field, a file', () => {
    for (const bad of ['a', null, ['x'], { get: () => 'x' }]) expect(() => assertForm(bad)).toThrow(NOT_FOUND);
    expect(() => assertForm(form({ email: 'a\u0000b' }))).toThrow(NOT_FOUND);
    expect(() => assertForm(form({ name: 'n'.repeat(10_001) }))).toThrow(NOT_FOUND);
    const withFile = new FormData();
    withFile.append('upload', new Blob(['x']), 'x.txt');
    expect(() => assertForm(withFile)).toThrow(NOT_FOUND);
  });
});
