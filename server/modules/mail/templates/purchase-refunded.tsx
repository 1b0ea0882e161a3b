import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function PurchaseRefundedMail({ locale, t, subject, data }: MailProps<'purchaseRefunded'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('purchaseRefunded.heading')}>
      <Paragraph>{t(`purchaseRefunded.reasons.${data.reason}`)}</Paragraph>
      <Paragraph>{t('purchaseRefunded.body', { amount: data.amount, event: data.eventTitle })}</Paragraph>
    </MailLayout>
  );
}

export const purchaseRefunded: MailTemplate<'purchaseRefunded'> = {
  subject: (t, data) => t('purchaseRefunded.subject', { event: data.eventTitle }),
  Mail: PurchaseRefundedMail,
};
