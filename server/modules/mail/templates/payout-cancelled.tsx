import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function PayoutCancelledMail({ locale, t, subject, data }: MailProps<'payoutCancelled'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('payoutCancelled.heading')}>
      <Paragraph>
        {t(`payoutCancelled.reasons.${data.reason}`, { event: data.eventTitle, date: data.showDate })}
      </Paragraph>
      <Paragraph>{t('payoutCancelled.body', { amount: data.amount })}</Paragraph>
      <Paragraph muted>{t('payoutCancelled.noAction')}</Paragraph>
    </MailLayout>
  );
}

export const payoutCancelled: MailTemplate<'payoutCancelled'> = {
  subject: (t, data) => t('payoutCancelled.subject', { event: data.eventTitle }),
  Mail: PayoutCancelledMail,
};
