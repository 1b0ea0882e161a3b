import { Action, MailLayout, Paragraph } from './layout';
import type { MailProps, MailTemplate } from './types';

function SignInLinkMail({ locale, t, subject, data }: MailProps<'signInLink'>) {
  const partner = data.partnerName;
  return (
    <MailLayout {...{ locale, t, partner, subject }} heading={t('signInLink.heading', { partner })}>
      <Paragraph>{t('signInLink.body', { partner, minutes: data.minutes })}</Paragraph>
      <Action url={data.url} label={t('signInLink.action')} hint={t('linkHint')} />
      <Paragraph muted>{t('signInLink.ignore')}</Paragraph>
    </MailLayout>
  );
}

export const signInLink: MailTemplate<'signInLink'> = {
  subject: (t, data) => t('signInLink.subject', { partner: data.partnerName }),
  Mail: SignInLinkMail,
};
