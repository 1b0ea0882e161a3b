import { TicketLinks } from './buyer-blocks';
import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function TicketsDeliveredMail({ locale, t, subject, data }: MailProps<'ticketsDelivered'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('ticketsDelivered.heading')}>
      <Paragraph>{t('ticketsDelivered.body', { event: data.eventTitle, date: data.showDate })}</Paragraph>
      <TicketLinks {...{ locale, t }} kind="ticketsDelivered" urls={data.secureViewUrls} promises={data.promises} />
    </MailLayout>
  );
}

export const ticketsDelivered: MailTemplate<'ticketsDelivered'> = {
  subject: (t, data) => t('ticketsDelivered.subject', { event: data.eventTitle }),
  Mail: TicketsDeliveredMail,
};
