import { render } from '@react-email/components';
import { createElement } from 'react';
import { type Locale, translator } from '@/server/lib/i18n';
import { type MailData, type MailKind, plainTextOptions, templates } from './templates';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders one mail of `kind` in `locale` from its data, with the `mail` messages of that language: the
 * subject, the HTML body (the kind's component) and the text body (the same component written as text).
 */
export async function renderMail<K extends MailKind>(
  kind: K,
  locale: Locale,
  data: MailData[K],
): Promise<RenderedMail> {
  const template = templates[kind];
  if (!template) throw new Error(`Unknown mail kind ${String(kind)}`);
  const t = translator(locale, 'mail');
  const subject = template.subject(t, data);
  const mail = createElement(template.Mail, { locale, t, subject, data });
  const [html, text] = await Promise.all([
    render(mail),
    render(mail, { plainText: true, htmlToTextOptions: plainTextOptions }),
  ]);
  return { subject, text, html: withoutComments(html) };
}

/**
 * React's own markers (`<!--$-->` around the render's Suspense boundary, `<!--html-->`, …) mean nothing to
 * a mail program; dropped, they also keep "--" out of the body, where a quoted-printable line starting
 * with it reads as a MIME boundary to a simple mail reader. Every `<!--` in React's output is a comment:
 * text and attribute values have their `<` escaped.
 */
function withoutComments(html: string): string {
  return html.replace(/<!--[\s\S]*?-->/g, '');
}
