'use client';

import { useSuspenseQuery } from '@tanstack/react-query';
import { Card, CardHeader } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { MailStatusBadge } from './mail-status';
import styles from './mailbox.module.css';

/**
 * One mail as sent: who, what, its state, the text body, and the HTML body rendered in a sandboxed frame
 * (no scripts, no same-origin access, no form posts), so a mail can never act on the dashboard.
 */
export function MailDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data: mail } = useSuspenseQuery(trpc.mail.get.queryOptions({ id }));
  return (
    <>
      <DetailList>
        <Detail term="To" data-testid="mail-to">
          {mail.toAddress}
        </Detail>
        <Detail term="Subject" data-testid="mail-subject">
          {mail.subject}
        </Detail>
        <Detail term="Status">
          <MailStatusBadge status={mail.status} />
        </Detail>
        <Detail term="Kind">
          <code className="mono">{mail.kind}</code> ({mail.locale})
        </Detail>
        <Detail term="Created">
          <Time value={mail.createdAt} />
        </Detail>
        <Detail term="Sent / stored">
          <Time value={mail.sentAt} fallback="Not yet" />
        </Detail>
        <Detail term="Attempts">{mail.attempts}</Detail>
        {mail.lastError ? <Detail term="Last error">{mail.lastError}</Detail> : null}
      </DetailList>
      <Card>
        <CardHeader title="Text" />
        <pre className={styles.text} data-testid="mail-text">
          {mail.textBody}
        </pre>
      </Card>
      <Card>
        <CardHeader title="HTML" description="As a mail program shows it (links are not followed here)." />
        <iframe
          className={styles.html}
          title={`HTML of the mail “${mail.subject}”`}
          sandbox=""
          referrerPolicy="no-referrer"
          srcDoc={mail.htmlBody}
        />
      </Card>
    </>
  );
}
