import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function ListingCancelledMail({ locale, t, subject, data }: MailProps<'listingCancelled'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('listingCancelled.heading')}>
      <Paragraph>{t('listingCancelled.body', { event: data.eventTitle })}</Paragraph>
      <Paragraph>{t(`listingCancelled.reasons.${data.reason}`)}</Paragraph>
    </MailLayout>
  );
}

export const listingCancelled: MailTemplate<'listingCancelled'> = {
  subject: (t, data) => t('listingCancelled.subject', { event: data.eventTitle }),
  Mail: ListingCancelledMail,
};
