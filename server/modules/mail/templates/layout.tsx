import { Body, Container, Head, Heading, Link, Section, Text } from '@react-email/components';
import type { CSSProperties, ReactNode } from 'react';
import type { Locale } from '@/server/lib/i18n';
import type { MailT } from './types';

/*
 * The frame every mail shares (one column: the partner's name, a heading, the blocks, the signature and
 * the footer) and the blocks a mail is made of. React escapes every value. No hooks and no context (the
 * words come as props): react-email renders with its own react-dom, not the React copy Next.js bundles
 * these components with.
 */

const font = '-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';
const text: CSSProperties = { margin: '0 0 16px', fontSize: '16px', lineHeight: '1.5' };
const muted: CSSProperties = { ...text, color: '#4b5563', fontSize: '14px' };
const link: CSSProperties = { color: '#1d4ed8', textDecorationLine: 'underline' };
const list: CSSProperties = { margin: '0 0 16px', paddingLeft: '20px' };
const item: CSSProperties = { margin: '0 0 8px' };
// A link drawn as a button: react-email's Button adds Outlook's conditional comments, which render.ts drops.
const button: CSSProperties = {
  display: 'inline-block',
  background: '#1d4ed8',
  color: '#ffffff',
  padding: '12px 20px',
  borderRadius: '6px',
  textDecoration: 'none',
  fontWeight: 600,
};

export function MailLayout(props: {
  locale: Locale;
  t: MailT;
  partner: string;
  subject: string;
  heading: string;
  children: ReactNode;
}) {
  const { t, partner } = props;
  return (
    <html lang={props.locale}>
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.subject}</title>
      </Head>
      <Body
        style={{ margin: 0, padding: 0, background: '#f3f4f6', fontFamily: font, color: '#111827', lineHeight: '1.5' }}
      >
        <div role="article" aria-roledescription="email" lang={props.locale}>
          <Container style={{ maxWidth: '592px', margin: '0 auto', padding: '24px 16px' }}>
            <Section style={{ background: '#ffffff', borderRadius: '8px', padding: '24px' }}>
              <Text style={{ ...text, margin: '0 0 8px', fontWeight: 600, color: '#374151' }} data-skip-in-text>
                {partner}
              </Text>
              <Heading as="h1" style={{ margin: '0 0 16px', fontSize: '22px', lineHeight: '1.3' }}>
                {props.heading}
              </Heading>
              {props.children}
              <Text style={{ ...text, margin: '24px 0 0' }}>{t('signature', { partner })}</Text>
            </Section>
            <Text style={{ ...muted, margin: '16px 0 0', fontSize: '12px' }} data-text="footer">
              {t('footer', { partner })}
            </Text>
          </Container>
        </div>
      </Body>
    </html>
  );
}

export function Paragraph({ muted: isMuted, children }: { muted?: boolean; children: ReactNode }) {
  return <Text style={isMuted ? muted : text}>{children}</Text>;
}

export function SubHeading({ children }: { children: ReactNode }) {
  return (
    <Heading as="h2" style={{ margin: '24px 0 8px', fontSize: '17px', lineHeight: '1.3' }}>
      {children}
    </Heading>
  );
}

export function Items({ items }: { items: string[] }) {
  return (
    <ul style={list}>
      {items.map((i, n) => (
        <li key={n} style={item}>
          {i}
        </li>
      ))}
    </ul>
  );
}

/** The mail's one main button, then its link written out for mail programs that show no button. */
export function Action({ url, label, hint }: { url: string; label: string; hint: string }) {
  return (
    <>
      <Text style={{ ...text, margin: '24px 0' }}>
        <Link href={url} style={button}>
          {label}
        </Link>
      </Text>
      <Text style={muted} data-skip-in-text>
        {hint}
        <br />
        <Link href={url} style={{ ...link, wordBreak: 'break-all' }}>
          {url}
        </Link>
      </Text>
    </>
  );
}

export function Links({ links }: { links: { label: string; url: string }[] }) {
  if (links.length === 0) return null;
  return (
    <ul style={list} data-text="links">
      {links.map((l, n) => (
        <li key={n} style={item} data-text="line">
          <Link href={l.url} style={link}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
