import { payoutDateText } from '@/server/lib/promises';
import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function TicketSoldMail({ locale, t, subject, data }: MailProps<'ticketSold'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('ticketSold.heading')}>
      <Paragraph>{t('ticketSold.body', { event: data.eventTitle, date: data.showDate })}</Paragraph>
      <Paragraph>{t('ticketSold.payout', { payout: data.payout })}</Paragraph>
      <Paragraph>{payoutDateText(locale, data.payoutDue)}</Paragraph>
      <Paragraph muted>{t('ticketSold.noAction')}</Paragraph>
    </MailLayout>
  );
}

export const ticketSold: MailTemplate<'ticketSold'> = {
  subject: (t, data) => t('ticketSold.subject', { event: data.eventTitle }),
  Mail: TicketSoldMail,
};
