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
import { BannerForm, EMPTY, type Editing, formOf, type Item, PLACEMENTS } from './banner-form';

function scopeLabel(b: Item): string {
  if (!b.eventRef) return 'Every event';
  return b.showId ? `${b.eventRef} · show ${b.showId}` : `${b.eventRef} (all shows)`;
}

function rulesLabel(b: Item): string {
  const rules = [
    b.onlyWhenPrimarySoldOut && 'primary sold out',
    b.hoursBeforeShow !== null && `within ${b.hoursBeforeShow} h of the show`,
    b.onlyForSellersWithSellable && 'seller has sellable tickets',
  ].filter(Boolean);
  return rules.length ? `Only when ${rules.join(', ')}` : 'Always';
}

/**
 * The partner's sell banners: the list, and an editor whose live preview (at a phone's and a desktop's
 * width) renders the component the access layer will answer, through the same function. Only an admin
 * creates, edits or deletes them: other roles read the list.
 */
export function BannerEditor({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data } = useSuspenseQuery(trpc.banners.list.queryOptions({ partnerId }));
  // `opened` counts the editor's openings: each one starts from the values it was opened with.
  const [editing, setEditing] = useState<(Editing & { opened: number }) | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const admin = useMay('admin');
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.banners.list.queryKey({ partnerId }) });
  const open = (next: Editing) => {
    setEditing((e) => ({ ...next, opened: (e?.opened ?? 0) + 1 }));
    setDone(null);
  };

  const remove = useMutation(
    trpc.banners.delete.mutationOptions({
      onSuccess: async () => {
        setDeleting(null);
        await refresh();
      },
    }),
  );

  return (
    <>
      <SectionCard
        data-testid="banner-list"
        title="Banners"
        description="Shown by the access layer as sellBanner components, newest first; a show's banners before its event's and the partner's."
        actions={
          editing || !admin ? null : (
            <Button
              variant="primary"
              onClick={() => open({ id: null, defaultUrl: data.resaleEntryUrl, values: EMPTY })}
            >
              New banner
            </Button>
          )
        }
      >
        <DoneStatus done={done} />
        {data.items.length === 0 ? (
          <EmptyState
            title="No banners yet"
            description="A banner invites fans to resell (or buy) on the partner's own pages, through the access layer."
          />
        ) : (
          <Table label="Banners" columns={['Title', 'Where', 'Placement', 'Shown', ...(admin ? [ACTIONS_COLUMN] : [])]}>
            {(data.items as Item[]).map((b) => (
              <BannerRow
                key={b.id}
                banner={b}
                actions={
                  admin && {
                    onEdit: () => open({ id: b.id, defaultUrl: b.defaultUrl, values: formOf(b) }),
                    onDelete: () => setDeleting(b),
                  }
                }
              />
            ))}
          </Table>
        )}
      </SectionCard>

      {editing && admin ? (
        <SectionCard
          data-testid="banner-form"
          title={editing.id ? 'Edit banner' : 'New banner'}
          description="The preview updates as you type; it is the component partners receive."
        >
          <div className="card-body">
            <BannerForm
              key={editing.opened}
              partnerId={partnerId}
              editing={editing}
              onSaved={async (message) => {
                await refresh();
                setEditing(null);
                setDone(message);
              }}
              onCancel={() => setEditing(null)}
            />
          </div>
        </SectionCard>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this banner?"
        description={
          <>
            <strong>{deleting?.title}</strong> stops appearing in the access layer at once. This cannot be undone.
          </>
        }
        confirmLabel="Delete banner"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error}
        onConfirm={() => deleting && remove.mutate({ partnerId, bannerId: deleting.id })}
        onCancel={() => setDeleting(null)}
      />
    </>
  );
}

/** A banner's row; with `actions` (an admin's), its Edit and Delete buttons. */
function BannerRow({
  banner: b,
  actions,
}: {
  banner: Item;
  actions: false | { onEdit: () => void; onDelete: () => void };
}) {
  return (
    <tr data-testid="banner-row">
      <td>
        {b.title} {b.active ? null : <Badge tone="neutral">Paused</Badge>}
      </td>
      <td>{scopeLabel(b)}</td>
      <td>{PLACEMENTS.find((p) => p.value === b.placement)?.label}</td>
      <td>{rulesLabel(b)}</td>
      {actions && (
        <td style={{ whiteSpace: 'nowrap' }}>
          <Button size="sm" onClick={actions.onEdit}>
            Edit
          </Button>{' '}
          <Button size="sm" variant="danger" onClick={actions.onDelete}>
            Delete
          </Button>
        </td>
      )}
    </tr>
  );
}
