import sanitizeHtml from 'sanitize-html';

/**
 * The partner's event description as safe HTML: basic formatting and http(s)/mailto links only (links
 * open in a new tab without the opener); anything else (scripts, styles, images, iframes, handlers) goes.
 */
function safeDescription(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'blockquote'],
    allowedAttributes: { a: ['href', 'rel', 'target'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: {
      a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
      h1: 'h3',
      h2: 'h3',
    },
  });
}

export function Description({ html, className }: { html: string; className?: string }) {
  const clean = safeDescription(html);
  if (!clean.trim()) return null;
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
