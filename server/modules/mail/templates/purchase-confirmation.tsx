import { Guarantee, TicketLinks } from './buyer-blocks';
import { MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function PurchaseConfirmationMail({ locale, t, subject, data }: MailProps<'purchaseConfirmation'>) {
  return (
    <MailLayout {...{ locale, t, subject }} partner={data.partnerName} heading={t('purchaseConfirmation.heading')}>
      <Paragraph>
        {t('purchaseConfirmation.body', { total: data.total, event: data.eventTitle, date: data.showDate })}
      </Paragraph>
      <TicketLinks {...{ locale, t }} kind="purchaseConfirmation" urls={data.secureViewUrls} promises={data.promises} />
      {data.awaitingDelivery ? (
        <Paragraph>{t('purchaseConfirmation.awaiting', { count: data.awaitingDelivery })}</Paragraph>
      ) : null}
      <Guarantee locale={locale} promises={data.promises} />
    </MailLayout>
  );
}

export const purchaseConfirmation: MailTemplate<'purchaseConfirmation'> = {
  subject: (t, data) => t('purchaseConfirmation.subject', { event: data.eventTitle }),
  Mail: PurchaseConfirmationMail,
};
