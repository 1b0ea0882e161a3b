'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { FieldDialog } from '@/components/ui/field-dialog';
import { OneTimeSecret } from '@/components/ui/secret-reveal';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import type { SecretKeyKind } from '@/server/modules/partners/schemas';

interface Props {
  partnerId: string;
  kind: SecretKeyKind;
  /** A channel's keys only (channels keys belong to one channel each). */
  channelId?: string;
  title: string;
  description: string;
  /** The section's test id when it is not `keys-<kind>` (the Test mode section's test keys). */
  testId?: string;
}

interface KeyRef {
  id: string;
  prefix: string;
  label: string;
}

const KEY_COLUMNS = ['Key', 'Label', 'Created', 'Last used', 'Status', ACTIONS_COLUMN];
const KEY_WIDTHS = ['11rem', undefined, '21%', '21%', '7rem', '7.5rem'];

/** One kind of key for a partner: table, create (secret shown once) and revoke behind a confirmation. */
export function ApiKeysSection({ partnerId, kind, channelId, title, description, testId }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: allKeys } = useSuspenseQuery(trpc.partners.keys.list.queryOptions({ partnerId, channelId }));
  const keys = allKeys.filter((k) => k.kind === kind);
  const admin = useMay('admin', 'develop');

  const [createOpen, setCreateOpen] = useState(false);
  const [revoking, setRevoking] = useState<KeyRef | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.partners.pathKey() });
  const create = useMutation(
    trpc.partners.keys.create.mutationOptions({
      gcTime: 0, // the secret lives only in this component's state
      onSuccess: () => {
        setCreateOpen(false);
        return refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.partners.keys.revoke.mutationOptions({
      onSuccess: () => {
        setRevoking(null);
        return refresh();
      },
    }),
  );

  const noun = kind === 'channels' ? 'Channels API key' : 'API key';
  const labelError = fieldErrors(create.error).label ?? null;

  return (
    <SectionCard
      data-testid={testId ?? (channelId ? `keys-channel-${channelId}` : `keys-${kind}`)}
      title={title}
      description={description}
      actions={
        admin && (
          <Button
            variant="primary"
            size="sm"
            onClick={() => {
              create.reset();
              setCreateOpen(true);
            }}
          >
            Create key
          </Button>
        )
      }
    >
      {create.data && (
        <div className="card-body">
          <OneTimeSecret
            title={`New ${noun} created. Copy it now. You won't see it again.`}
            label={create.data.key.label ? `${noun} “${create.data.key.label}”` : noun}
            value={create.data.secret}
            onDone={() => create.reset()}
          >
            Only a hash is stored; this page cannot show the key once you leave it.
          </OneTimeSecret>
        </div>
      )}

      {keys.length === 0 ? (
        <div className="card-body">
          <EmptyState
            title={`No ${noun}s`}
            description={admin ? 'Create one to let the partner call the API.' : 'An admin creates them.'}
          />
        </div>
      ) : (
        <Table label={title} fixed columns={KEY_COLUMNS} widths={KEY_WIDTHS}>
          {keys.map((k) => (
            <tr key={k.id} data-key-prefix={k.prefix}>
              <td>
                <code className="mono">{k.prefix}…</code>
              </td>
              <td title={k.label || undefined}>{k.label || <span className="muted">—</span>}</td>
              <td>
                <Time value={k.createdAt} />
              </td>
              <td>
                <Time value={k.lastUsedAt} fallback="Never" />
              </td>
              <td>
                {k.revokedAt ? (
                  <span title={`Revoked ${k.revokedAt.toISOString()}`}>
                    <Badge tone="danger">Revoked</Badge>
                  </span>
                ) : (
                  <Badge tone="success">Active</Badge>
                )}
              </td>
              <td className="actions">
                {admin && !k.revokedAt && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="btn-danger-text"
                    aria-label={`Revoke ${k.prefix}…`}
                    onClick={() => {
                      revoke.reset();
                      setRevoking({ id: k.id, prefix: k.prefix, label: k.label });
                    }}
                  >
                    Revoke
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}

      <FieldDialog
        open={createOpen}
        title={`Create ${noun}`}
        description="The key is shown once, right after it is created."
        field={{
          label: 'Label',
          name: 'label',
          maxLength: 80,
          error: labelError,
          hint: 'Where the key is used, e.g. “production” or “staging”.',
        }}
        submit="Create key"
        pending={create.isPending}
        pendingLabel="Creating…"
        error={create.error}
        onSubmit={(label) => create.mutate({ partnerId, kind, label, channelId })}
        onCancel={() => setCreateOpen(false)}
      />

      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.prefix ?? ''}…?`}
        description={
          <p>
            Calls using this key{revoking?.label ? ` (“${revoking.label}”)` : ''} will be refused immediately. This
            cannot be undone.
          </p>
        }
        confirmLabel="Revoke key"
        pendingLabel="Revoking…"
        pending={revoke.isPending}
        error={revoke.error}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate({ partnerId, keyId: revoking.id });
        }}
      />
    </SectionCard>
  );
}
