'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { DoneStatus } from '../../_shared/done-status';
import { describeRule, scopeOf, TYPES } from './rule-words';
import { StaffRuleForm } from './staff-rule-form';

/**
 * An event's resale rules, the partner's and staff's, and (for an admin) staff rules set or removed behind
 * a confirmation.
 */
export function RulesEditor({ partnerId, eventRef }: { partnerId: string; eventRef: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.rules.ofEvent.queryOptions({ partnerId, eventRef }));
  const [removing, setRemoving] = useState<(typeof data.rules)[number] | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const admin = useMay('admin');
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.rules.ofEvent.queryKey({ partnerId, eventRef }) });
  const remove = useMutation(
    trpc.rules.delete.mutationOptions({
      onSuccess: async () => {
        setRemoving(null);
        setDone('Staff rule removed.');
        await refresh();
      },
    }),
  );

  return (
    <>
      <SectionCard
        data-testid="rules-list"
        title={`Rules of ${data.event.title}`}
        description="The most specific rule of a type wins; at the same scope a staff rule wins over the partner's."
      >
        <DoneStatus done={done} />
        {data.rules.length === 0 ? (
          <EmptyState
            title="No resale rules"
            description="Resale is open under the show's own settings until a rule says otherwise."
          />
        ) : (
          <Table label="Resale rules" columns={['Scope', 'Type', 'Rule', 'Set by', ...(admin ? [ACTIONS_COLUMN] : [])]}>
            {data.rules.map((r) => (
              <tr key={r.id} data-testid="rule-row" data-source={r.source}>
                <td>{scopeOf(r)}</td>
                <td>{TYPES.find((t) => t.value === r.ruleType)?.label ?? r.ruleType}</td>
                <td>{describeRule(r.ruleType, r.rules)}</td>
                <td>
                  {r.source === 'STAFF' ? <Badge tone="warning">Staff</Badge> : <Badge>Partner</Badge>}{' '}
                  {r.overridden ? <Badge tone="danger">Overridden by staff</Badge> : null}
                  {r.updatedBy ? <span className="field-hint"> {r.updatedBy}</span> : null}
                </td>
                {admin && (
                  <td>
                    {r.source === 'STAFF' ? (
                      <Button size="sm" variant="danger" onClick={() => setRemoving(r)}>
                        Remove
                      </Button>
                    ) : null}
                  </td>
                )}
              </tr>
            ))}
          </Table>
        )}
      </SectionCard>

      {admin && (
        <SectionCard
          data-testid="rule-form"
          title="Set a staff rule"
          description="It replaces the partner's rule of the same scope and type until removed; the partner's stays stored."
        >
          <div className="card-body">
            <StaffRuleForm
              partnerId={partnerId}
              eventRef={eventRef}
              shows={data.shows}
              onChange={() => setDone(null)}
              onSaved={async () => {
                setDone('Staff rule saved.');
                await refresh();
              }}
            />
          </div>
        </SectionCard>
      )}

      <ConfirmDialog
        open={removing !== null}
        title="Remove this staff rule?"
        description={<>The partner&apos;s rule of this scope, if any, applies again at once.</>}
        confirmLabel="Remove rule"
        pendingLabel="Removing…"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => removing && remove.mutate({ partnerId, ruleId: removing.id })}
        onCancel={() => setRemoving(null)}
      />
    </>
  );
}

/** "Why is this ticket (not) sellable?": its status, the reasons, and per rule type the rule that wins. */
export function TicketExplainer({ partnerId, ticketId }: { partnerId: string; ticketId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.rules.explain.queryOptions({ partnerId, ticketId }));
  return (
    <SectionCard
      data-testid="explainer"
      title={`Ticket ${data.ticketId}: ${data.status.replace('_', ' ').toLowerCase()}`}
      description={`Event ${data.eventRef}, show ${data.showId}, option ${data.ticketOptionId}${data.priceTypeId ? `, price type ${data.priceTypeId}` : ''}; owner ${data.owner ?? 'unknown'}.`}
    >
      <div className="card-body">
        {data.codeShownAt ? (
          <p data-testid="explainer-code-shown">
            Its code was first shown to its holder on{' '}
            {new Date(data.codeShownAt).toISOString().slice(0, 16).replace('T', ' ')} UTC.
          </p>
        ) : null}
        {data.reasons.length ? (
          <ul data-testid="explainer-reasons">
            {data.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : (
          <p>{data.status === 'SELLABLE' ? 'Nothing stops this ticket from being listed.' : null}</p>
        )}
        {data.rules.length ? (
          <table className="table" aria-label="Rules for this ticket">
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Winning rule</th>
                <th scope="col">Also applies</th>
              </tr>
            </thead>
            <tbody>
              {data.rules.map((r) => (
                <tr key={r.ruleType} data-testid="explained-rule">
                  <td>{TYPES.find((t) => t.value === r.ruleType)?.label ?? r.ruleType}</td>
                  <td data-testid="winner">
                    {r.winner ? (
                      <>
                        {describeRule(r.ruleType, r.winner.rules)} ({r.winner.scope},{' '}
                        {r.winner.source === 'STAFF' ? 'staff' : 'partner'})
                      </>
                    ) : null}
                  </td>
                  <td>
                    {r.candidates
                      .filter((c) => c.id !== r.winner?.id)
                      .map(
                        (c) =>
                          `${describeRule(r.ruleType, c.rules)} (${c.scope}, ${c.source === 'STAFF' ? 'staff' : 'partner'})`,
                      )
                      .join('; ') || '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No resale rule applies to this ticket.</p>
        )}
      </div>
    </SectionCard>
  );
}
