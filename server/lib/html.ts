import sanitizeHtml from 'sanitize-html';

/**
 * Partner-supplied HTML (event descriptions) made safe to render with dangerouslySetInnerHTML:
 * formatting, lists, links and headings stay; scripts, styles, event handlers (onerror, …),
 * iframes and javascript: URLs go. Done on the server so the browser never receives the raw markup.
 */
export function sanitizeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'p',
      'br',
      'ul',
      'ol',
      'li',
      'a',
      'h2',
      'h3',
      'h4',
      'blockquote',
      'span',
    ],
    allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    // Links leave the dashboard without handing it to the target.
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
    disallowedTagsMode: 'discard',
  });
}
