import { payoutDateText } from '@/server/lib/promises';
import { Action, MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function ListingCreatedMail({ locale, t, subject, data }: MailProps<'listingCreated'>) {
  const event = data.eventTitle;
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('listingCreated.heading')}>
      <Paragraph>{t('listingCreated.body', { event, date: data.showDate, price: data.price })}</Paragraph>
      <Paragraph>{t('listingCreated.payout', { payout: data.payout })}</Paragraph>
      <Paragraph>{payoutDateText(locale, data.payoutDue, 'ifSold')}</Paragraph>
      <Action url={data.listingUrl} label={t('listingCreated.action')} hint={t('linkHint')} />
    </MailLayout>
  );
}

export const listingCreated: MailTemplate<'listingCreated'> = {
  subject: (t, data) => t('listingCreated.subject', { event: data.eventTitle }),
  Mail: ListingCreatedMail,
};
