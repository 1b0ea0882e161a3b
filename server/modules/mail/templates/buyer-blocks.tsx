import type { Locale } from '@/server/lib/i18n';
import { type BuyerPromiseFacts, deliveryText, guaranteeTexts } from '@/server/lib/promises';
import { Action, Items, Links, Paragraph, SubHeading } from './layout';
import type { MailT } from './types';

/** The ticket links of a purchase or a delivery, then the reminder to keep them private (none: nothing). */
export function TicketLinks(props: {
  locale: Locale;
  t: MailT;
  kind: 'purchaseConfirmation' | 'ticketsDelivered';
  urls: string[];
  promises: BuyerPromiseFacts;
}) {
  const { t, kind, urls } = props;
  if (urls.length === 0) return null;
  return (
    <>
      <Paragraph>{deliveryText(props.locale, props.promises)}</Paragraph>
      <Paragraph>{t(`${kind}.tickets`, { count: urls.length })}</Paragraph>
      {urls.length === 1 ? (
        <Action url={urls[0]} label={t(`${kind}.ticket`, { number: 1 })} hint={t('linkHint')} />
      ) : (
        <Links links={urls.map((url, i) => ({ label: t(`${kind}.ticket`, { number: i + 1 }), url }))} />
      )}
      <Paragraph muted>{t(`${kind}.private`)}</Paragraph>
    </>
  );
}

/** What Encore guarantees (guarantee-block.tsx on the pages says the same, from the same facts). */
export function Guarantee({ locale, promises }: { locale: Locale; promises: BuyerPromiseFacts }) {
  const g = guaranteeTexts(locale, promises);
  const help = [
    ...(g.support.url ? [{ label: g.support.url.label, url: g.support.url.href }] : []),
    ...(g.support.email ? [{ label: g.support.email.label, url: g.support.email.href }] : []),
  ];
  return (
    <>
      <SubHeading>{g.title}</SubHeading>
      <Items items={g.items} />
      <Links links={[{ label: g.terms.label, url: g.terms.url }]} />
      <Paragraph muted>{g.support.lead}</Paragraph>
      <Links links={help} />
    </>
  );
}
