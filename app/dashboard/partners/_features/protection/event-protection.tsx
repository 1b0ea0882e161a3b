'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useId, useState } from 'react';
import { ActionForm, FormActions, type FormValues } from '@/components/ui/action-form';
import { Badge } from '@/components/ui/badge';
import { CardBody, SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Detail, DetailList } from '@/components/ui/details';
import { SelectField } from '@/components/ui/field';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import type { AppRouter } from '@/server/trpc/router';
import layout from '../../_shared/form-layout.module.css';
import styles from '../../_shared/browser.module.css';
import { UnlockHoursField } from './unlock-hours-field';

type EventProtection = inferRouterOutputs<AppRouter>['protection']['event'];
type Switch = 'inherit' | 'on' | 'off';

const toSwitch = (v: boolean | null): Switch => (v === null ? 'inherit' : v ? 'on' : 'off');
const fromSwitch = (s: Switch): boolean | null => (s === 'inherit' ? null : s === 'on');

type ScopeProps = Parameters<typeof ScopeForm>[0];

/** A scope's form for an admin; for other roles, its settings as text. */
function Scope(props: ScopeProps) {
  const admin = useMay('admin');
  if (admin) return <ScopeForm {...props} />;
  const { active, unlockHours, inheritLabel, showPk } = props;
  return (
    <DetailList data-testid={showPk ? `protection-show-${showPk}` : 'protection-event'}>
      <Detail term="Protection">{active === null ? inheritLabel : active ? 'On' : 'Off'}</Detail>
      <Detail term="Unlock override">
        {unlockHours === null ? <span className="muted">None</span> : `${unlockHours} h before the show`}
      </Detail>
    </DetailList>
  );
}

/**
 * One scope's form (the event, or one show): the switch (inherit, on, off) and the unlock override.
 * Switching protection off (for the scope or, through the event, its shows) asks first: the partner is told
 * (`ticketShield.updated`) and resale stops for those shows.
 */
function ScopeForm({
  partnerId,
  eventPk,
  showPk,
  title,
  active,
  unlockHours,
  inheritLabel,
  effectiveNow,
  done,
  setDone,
}: {
  partnerId: string;
  eventPk: string;
  showPk: string | null;
  title: string;
  active: boolean | null;
  unlockHours: number | null;
  inheritLabel: string;
  effectiveNow: boolean;
  /** The "saved" line lives in the section: saving refetches and remounts the forms with the new values. */
  done: string | null;
  setDone: (text: string | null) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [localError, setLocalError] = useState<string | null>(null);
  // The change that waits for "Turn off" to be confirmed, as it was submitted.
  const [confirming, setConfirming] = useState<{ active: boolean | null; unlockHours: number | null } | null>(null);
  const save = useMutation(
    trpc.protection.setScope.mutationOptions({
      onSuccess: async (result) => {
        setConfirming(null);
        const n = result.notified.length;
        setDone(n ? `Saved. The partner is told for ${n} show${n === 1 ? '' : 's'}.` : 'Saved.');
        await queryClient.invalidateQueries({ queryKey: trpc.protection.event.queryKey({ partnerId, eventPk }) });
      },
    }),
  );
  const serverErrors = fieldErrors(save.error);

  function parsed(hours: string): { unlockHours: number | null } | null {
    const text = hours.trim();
    if (text === '') return { unlockHours: null };
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0 || n > 720) {
      setLocalError('Enter whole hours from 0 to 720, or leave empty');
      return null;
    }
    return { unlockHours: n };
  }

  function submit(values: FormValues) {
    setDone(null);
    const p = parsed(values.text('unlockHours'));
    if (!p) return;
    const state = values.text('active');
    const next = fromSwitch(state === 'on' || state === 'off' ? state : 'inherit');
    // Turning it off here, or leaving it to an event that is off: ask before resale stops.
    const turningOff = effectiveNow && (next === false || (next === null && inheritLabel.includes('off')));
    if (turningOff) {
      setConfirming({ active: next, unlockHours: p.unlockHours });
      return;
    }
    save.mutate({ partnerId, eventPk, showPk, active: next, unlockHours: p.unlockHours });
  }

  return (
    <ActionForm
      onSubmit={submit}
      aria-label={`Protection of ${title}`}
      error={confirming ? null : save.error}
      errorAtField={!!serverErrors.unlockHours}
      data-testid={showPk ? `protection-show-${showPk}` : 'protection-event'}
    >
      <div className={layout.twoColumns}>
        <SelectField
          label="Protection"
          id={`${id}-switch`}
          name="active"
          defaultValue={toSwitch(active)}
          onChange={() => setDone(null)}
        >
          <option value="inherit">{inheritLabel}</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </SelectField>
        <UnlockHoursField
          defaultValue={unlockHours === null ? '' : String(unlockHours)}
          onChange={() => {
            setLocalError(null);
            setDone(null);
          }}
          error={localError ?? serverErrors.unlockHours ?? null}
          hint="Overrides the partner’s ticketDelivery and default. Empty: no override."
        />
      </div>
      <FormActions submit="Save" pending={save.isPending} done={done} />
      <ConfirmDialog
        open={confirming !== null}
        title={`Turn protection off for ${title}?`}
        description="Codes are shown at once on the secure view, resale stops for these shows (their listings are taken off sale, sellers are told by mail and may list again once protection is back; new listings are refused), and the partner receives ticketShield.updated."
        confirmLabel="Turn off"
        pendingLabel="Saving…"
        pending={save.isPending}
        error={save.error}
        onConfirm={() => {
          if (confirming) save.mutate({ partnerId, eventPk, showPk, ...confirming });
        }}
        onCancel={() => setConfirming(null)}
      />
    </ActionForm>
  );
}

/** The protection section of an event's page: the event's switch, then each show's, with what is in force. */
export function EventProtectionSection({ partnerId, eventPk }: { partnerId: string; eventPk: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.protection.event.queryOptions({ partnerId, eventPk }));
  const [done, setDone] = useState<{ scope: string; text: string } | null>(null);
  const doneOf = (scope: string) => ({
    done: done?.scope === scope ? done.text : null,
    setDone: (text: string | null) => setDone(text === null ? null : { scope, text }),
  });
  return (
    <SectionCard
      title="Ticket protection"
      headingId="protection-heading"
      description={`Protection keeps the code off the secure view until it unlocks (${data.defaultUnlockHours} h before the show by default, or the partner’s ticketDelivery) and is required for resale. A show’s setting wins over the event’s. Each change is sent to the partner as ticketShield.updated.`}
    >
      <CardBody>
        <div className={styles.stack} key={JSON.stringify(data)}>
          <section aria-label="Whole event">
            <h3>Whole event</h3>
            <Scope
              partnerId={partnerId}
              eventPk={eventPk}
              showPk={null}
              title="the whole event"
              active={data.event.active}
              unlockHours={data.event.unlockHours}
              inheritLabel="Default (on)"
              effectiveNow={data.event.active !== false}
              {...doneOf('event')}
            />
          </section>
          {data.shows.map((s: EventProtection['shows'][number]) => (
            <section key={s.showPk} aria-label={`Show ${s.showId}`}>
              <h3>
                {s.title} <code className="mono">{s.showId}</code>{' '}
                <span data-testid={`protection-state-${s.showId}`}>
                  <Badge tone={s.effective.active ? 'success' : 'danger'}>
                    {s.effective.active ? 'Protected' : 'Not protected'}
                  </Badge>
                </span>
              </h3>
              <p className="muted">
                <Time value={s.startsAt} />
                {s.effective.unlockOverride !== null ? ` · unlocks ${s.effective.unlockOverride} h before` : ''}
              </p>
              <Scope
                partnerId={partnerId}
                eventPk={eventPk}
                showPk={s.showPk}
                title={`show ${s.showId}`}
                active={s.active}
                unlockHours={s.unlockHours}
                inheritLabel={`As the event (${data.event.active === false ? 'off' : 'on'})`}
                effectiveNow={s.effective.active}
                {...doneOf(s.showPk)}
              />
            </section>
          ))}
        </div>
      </CardBody>
    </SectionCard>
  );
}
