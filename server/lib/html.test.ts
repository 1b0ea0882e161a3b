import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from './html';

describe('sanitizeDescription', () => {
  it('keeps formatting and links, drops scripts, handlers and javascript: URLs', () => {
    expect(sanitizeDescription('<b>Bold</b> <i>it</i><script>alert(1)</script>')).toBe('<b>Bold</b> <i>it</i>');
    expect(sanitizeDescription('<img src=x onerror="alert(1)">ok')).toBe('ok');
    expect(sanitizeDescription('<p onclick="x()">p</p>')).toBe('<p>p</p>');
    expect(sanitizeDescription('<a href="javascript:alert(1)">x</a>')).toBe(
      '<a rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
    expect(sanitizeDescription('<a href="https://example.com">x</a>')).toBe(
      '<a href="https://example.com" rel="noopener noreferrer nofollow" target="_blank">x</a>',
    );
  });
});
