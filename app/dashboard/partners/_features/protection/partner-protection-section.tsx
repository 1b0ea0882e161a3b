'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import Link from '@/components/ui/link';
import { useState } from 'react';
import { ActionForm, FormActions, type FormValues } from '@/components/ui/action-form';
import { CardBody, SectionCard } from '@/components/ui/card';
import { Detail, DetailList } from '@/components/ui/details';
import { EmptyState } from '@/components/ui/empty-state';
import { SelectField } from '@/components/ui/field';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import layout from '../../_shared/form-layout.module.css';
import { ticketPath } from '../../_shared/paths';
import { UnlockHoursField } from './unlock-hours-field';

/** "3 h 12 min", "45 s": a delay staff read at a glance. */
function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/**
 * The partner's protection: its defaults (hours before the show a code unlocks when it sends no
 * ticketDelivery; whether it reissues tickets after a resale), the reissue delay over 30 days, and the
 * tickets waiting for their reissue, longest first. Switches per event and show are on the event pages.
 * Only an admin changes the defaults: other roles read them.
 */
export function PartnerProtectionSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: settings } = useSuspenseQuery(trpc.protection.partner.queryOptions({ partnerId }));
  const { data: reissues } = useSuspenseQuery(trpc.protection.reissues.queryOptions({ partnerId }));
  const [localError, setLocalError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const admin = useMay('admin');
  const save = useMutation(
    trpc.protection.setPartner.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.protection.partner.queryKey({ partnerId }), next);
        setDone(true);
      },
    }),
  );
  const serverErrors = fieldErrors(save.error);
  const { stats, awaiting } = reissues;

  function submit(values: FormValues) {
    setDone(false);
    const hours = values.text('unlockHours').trim();
    const n = Number(hours);
    if (hours === '' || !Number.isInteger(n) || n < 0 || n > 720) {
      setLocalError('Enter whole hours from 0 to 720');
      document.querySelector<HTMLInputElement>('#partner-protection [name="unlockHours"]')?.focus();
      return;
    }
    save.mutate({ partnerId, unlockHours: n, reissue: values.text('reissue') === 'yes' });
  }

  return (
    <SectionCard
      data-testid="partner-protection"
      title="Ticket protection"
      headingId="partner-protection-heading"
      description="Codes stay off the secure view until they unlock; resale needs protection. Switch it per event and show on the event pages."
    >
      <CardBody>
        {!admin ? (
          <DetailList>
            <Detail term="Code unlocks">{settings.unlockHours} h before the show</Detail>
            <Detail term="Reissue after resale">
              {settings.reissue
                ? 'Yes: the partner sends a new ticketAccess'
                : 'No: the original code passes to the buyer'}
            </Detail>
          </DetailList>
        ) : (
          <ActionForm
            id="partner-protection"
            onSubmit={submit}
            aria-label="Protection defaults"
            error={save.error}
            errorAtField={!!serverErrors.unlockHours}
          >
            <div className={layout.twoColumns}>
              <UnlockHoursField
                required
                defaultValue={String(settings.unlockHours)}
                onChange={() => {
                  setLocalError(null);
                  setDone(false);
                }}
                error={localError ?? serverErrors.unlockHours ?? null}
                hint="When the partner sends no ticketDelivery. Default 3."
              />
              <SelectField
                label="Reissue after resale"
                name="reissue"
                defaultValue={settings.reissue ? 'yes' : 'no'}
                onChange={() => setDone(false)}
              >
                <option value="no">No: the original code passes to the buyer</option>
                <option value="yes">Yes: the partner sends a new ticketAccess (PUT /v1/tickets)</option>
              </SelectField>
            </div>
            <FormActions submit="Save protection" pending={save.isPending} done={done ? 'Saved.' : null} />
          </ActionForm>
        )}
        <h3>Reissues</h3>
        <DetailList>
          <Detail term="Awaiting reissue">
            <span data-testid="reissue-awaiting">{stats.awaiting}</span>
            {stats.oldestSince ? (
              <>
                {' '}
                (oldest since <Time value={stats.oldestSince} />)
              </>
            ) : null}
          </Detail>
          <Detail term="Reissued in 30 days">{stats.reissuedLast30Days}</Detail>
          <Detail term="Median delay">
            <span data-testid="reissue-median">{duration(stats.medianSeconds)}</span>
          </Detail>
          <Detail term="Slowest">{duration(stats.maxSeconds)}</Detail>
        </DetailList>
        {awaiting.length === 0 ? (
          <EmptyState
            title="No ticket awaits a reissue"
            description={
              settings.reissue
                ? 'After a resale or transfer, the new owner’s ticket waits here until the partner’s new ticketAccess arrives.'
                : 'This partner does not reissue: the original code passes to the buyer.'
            }
          />
        ) : (
          <Table
            label="Tickets awaiting reissue"
            columns={['Ticket', 'Event', 'New owner', 'Waiting since']}
            bodyTestId="reissue-list"
          >
            {awaiting.map((t) => (
              <tr key={t.pk}>
                <td>
                  <Link href={ticketPath(partnerId, t.pk)}>
                    <code className="mono">{t.ticketId}</code>
                  </Link>
                </td>
                <td>
                  {t.event} <code className="mono">{t.showId}</code>
                </td>
                <td>{t.owner ?? '—'}</td>
                <td>
                  <Time value={t.since} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </CardBody>
    </SectionCard>
  );
}
