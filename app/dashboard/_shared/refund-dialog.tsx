'use client';

import { FieldDialog } from '@/components/ui/field-dialog';
import { fieldErrors } from '@/components/trpc/errors';

/**
 * "Refund <total> to <buyer>?" with the required reason the partner receives (market.refund), as the
 * purchases table and the support search both ask it. The caller holds the mutation; `onSubmit` gets the reason.
 */
export function RefundDialog({
  open,
  total,
  buyerEmail,
  refund,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  total: string;
  buyerEmail: string;
  refund: { isPending: boolean; error: unknown; reset: () => void };
  onSubmit: (reason: string) => void;
  onCancel: () => void;
}) {
  return (
    <FieldDialog
      open={open}
      role="alertdialog"
      title={`Refund ${total} to ${buyerEmail}?`}
      description={
        <p>
          The whole payment goes back to the buyer, the sellers&rsquo; scheduled payouts are cancelled and the partner
          is told by a <code>ticket.refunded</code> webhook with the reason. This cannot be undone.
        </p>
      }
      formLabel="Refund the purchase"
      field={{
        label: 'Reason',
        name: 'reason',
        required: true,
        maxLength: 500,
        onChange: () => {
          if (refund.error) refund.reset(); // the message was about what is being corrected
        },
        error: fieldErrors(refund.error).reason ?? null,
        hint: 'Sent to the partner and kept with the refund.',
      }}
      submit="Refund purchase"
      pending={refund.isPending}
      pendingLabel="Refunding…"
      error={refund.error}
      onSubmit={onSubmit}
      onCancel={onCancel}
    />
  );
}
