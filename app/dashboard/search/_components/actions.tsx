'use client';

import { useMutation } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { RefundDialog } from '../../_shared/refund-dialog';

/*
 * The support actions on the search page, each behind a confirmation and shown only to a role that may
 * take it (a refund needs `money`; a resend or ending a fan's sessions, `support`). The page is rendered
 * on the server, so after an action it is refreshed (router.refresh) and shows the new state.
 */

function Done({ children }: { children: React.ReactNode }) {
  return (
    <p role="status" className="muted">
      {children}
    </p>
  );
}

interface RefundProps {
  partnerId: string;
  intentionId: string;
  buyerEmail: string;
  total: string;
}

/** Refunds a completed purchase whole, behind a required reason (market.refund: the partner gets it). */
export function RefundAction(props: RefundProps) {
  return useMay('money') ? <Refund {...props} /> : null;
}

function Refund({ partnerId, intentionId, buyerEmail, total }: RefundProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const refund = useMutation(
    trpc.market.refund.mutationOptions({
      onSuccess: (result) => {
        setOpen(false);
        setDone(
          result.retrying
            ? `Refunded in Encore; the provider failed, and a job is trying again.`
            : `Refunded ${total} to ${buyerEmail}.`,
        );
        router.refresh();
      },
    }),
  );
  return (
    <>
      {done ? (
        <Done>{done}</Done>
      ) : (
        <Button
          size="sm"
          variant="danger"
          aria-label={`Refund ${intentionId}`}
          onClick={() => {
            refund.reset();
            setOpen(true);
          }}
        >
          Refund
        </Button>
      )}
      <RefundDialog
        open={open}
        total={total}
        buyerEmail={buyerEmail}
        refund={refund}
        onSubmit={(reason) => refund.mutate({ partnerId, intentionId, reason })}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

interface ResendProps {
  mailId: string;
  to: string;
  subject: string;
}

/** Sends a stored mail again, as a new mail (mail.resend). */
export function ResendMailAction(props: ResendProps) {
  return useMay('support') ? <ResendMail {...props} /> : null;
}

function ResendMail({ mailId, to, subject }: ResendProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const resend = useMutation(
    trpc.mail.resend.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        router.refresh();
      },
    }),
  );
  return (
    <>
      {resend.data ? (
        <Done>
          Queued again as{' '}
          <Link href={`/dashboard/mailbox/${encodeURIComponent(resend.data.id)}`}>{resend.data.id}</Link>
        </Done>
      ) : (
        <Button size="sm" aria-label={`Resend ${mailId}`} onClick={() => (resend.reset(), setOpen(true))}>
          Resend
        </Button>
      )}
      <ConfirmDialog
        open={open}
        tone="primary"
        title={`Send “${subject}” to ${to} again?`}
        description={<p>The same mail, as it was written, is sent again as a new mail; it appears in the mailbox.</p>}
        confirmLabel="Resend mail"
        pendingLabel="Sending…"
        pending={resend.isPending}
        error={resend.error}
        onConfirm={() => resend.mutate({ id: mailId })}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

interface EndSessionsProps {
  partnerId: string;
  partnerName: string;
  email: string;
  open: number;
}

/** Ends every open session of the fan with one partner (opsSearch.endSessions). */
export function EndSessionsAction(props: EndSessionsProps) {
  return useMay('support') ? <EndSessions {...props} /> : null;
}

function EndSessions({ partnerId, partnerName, email, open: openSessions }: EndSessionsProps) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const end = useMutation(
    trpc.opsSearch.endSessions.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        router.refresh();
      },
    }),
  );
  if (end.data) return <Done>Ended {end.data.ended === 1 ? '1 session' : `${end.data.ended} sessions`}.</Done>;
  return (
    <>
      <Button
        size="sm"
        variant="danger"
        disabled={openSessions === 0}
        aria-label={`End sessions at ${partnerName}`}
        onClick={() => (end.reset(), setOpen(true))}
      >
        End sessions ({openSessions} open)
      </Button>
      <ConfirmDialog
        open={open}
        title={`Sign ${email} out at ${partnerName}?`}
        description={
          <p>
            Every open session of this fan with {partnerName} ends now: their next page asks them to sign in again.
            Their sessions with other partners stay open.
          </p>
        }
        confirmLabel="End sessions"
        pendingLabel="Ending…"
        pending={end.isPending}
        error={end.error}
        onConfirm={() => end.mutate({ partnerId, email })}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
