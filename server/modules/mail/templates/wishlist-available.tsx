import { Action, Links, MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function WishlistAvailableMail({ locale, t, subject, data }: MailProps<'wishlistAvailable'>) {
  const partner = data.partnerName;
  return (
    <MailLayout {...{ locale, t, partner, subject }} heading={t('wishlistAvailable.heading')}>
      <Paragraph>
        {t('wishlistAvailable.body', { event: data.eventTitle, date: data.showDate, price: data.price })}
      </Paragraph>
      <Action url={data.buyUrl} label={t('wishlistAvailable.action')} hint={t('linkHint')} />
      <Paragraph muted>{t('wishlistAvailable.why', { partner })}</Paragraph>
      <Links links={[{ label: t('wishlistAvailable.unsubscribe'), url: data.unsubscribeUrl }]} />
    </MailLayout>
  );
}

export const wishlistAvailable: MailTemplate<'wishlistAvailable'> = {
  subject: (t, data) => t('wishlistAvailable.subject', { event: data.eventTitle }),
  Mail: WishlistAvailableMail,
};
