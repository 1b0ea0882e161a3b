'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { SecretReveal } from '@/components/ui/secret-reveal';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { errorMessage, fieldErrors } from '@/components/trpc/errors';
import type { ApiKeyKind } from '@/server/modules/partners/schemas';

interface Props {
  partnerId: string;
  kind: ApiKeyKind;
  title: string;
  description: string;
}

interface KeyRef {
  id: string;
  prefix: string;
  label: string;
}

/** One kind of key for a partner: table, create (secret shown once) and revoke behind a confirmation. */
export function ApiKeysSection({ partnerId, kind, title, description }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const headingId = useId();
  const { data: allKeys } = useSuspenseQuery(trpc.partners.keys.list.queryOptions({ partnerId }));
  const keys = allKeys.filter((k) => k.kind === kind);

  const [createOpen, setCreateOpen] = useState(false);
  const [label, setLabel] = useState('');
  const [revoking, setRevoking] = useState<KeyRef | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.partners.pathKey() });
  const create = useMutation(
    trpc.partners.keys.create.mutationOptions({
      gcTime: 0, // the secret lives only in this component's state
      onSuccess: () => {
        setCreateOpen(false);
        setLabel('');
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
    <Card aria-labelledby={headingId} data-testid={`keys-${kind}`}>
      <CardHeader
        headingId={headingId}
        title={title}
        description={description}
        actions={
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
        }
      />

      {create.data && (
        <div className="card-body">
          <Alert tone="success" title={`New ${noun} created. Copy it now. You won't see it again.`}>
            Only a hash is stored; this page cannot show the key once you leave it.
          </Alert>
          <SecretReveal
            label={create.data.key.label ? `${noun} “${create.data.key.label}”` : noun}
            value={create.data.secret}
          />
          <div className="form-actions">
            <Button size="sm" onClick={() => create.reset()}>
              I have copied it
            </Button>
          </div>
        </div>
      )}

      {keys.length === 0 ? (
        <div className="card-body">
          <EmptyState title={`No ${noun}s`} description="Create one to let the partner call the API." />
        </div>
      ) : (
        <Table label={title} fixed>
          <colgroup>
            <col style={{ width: '11rem' }} />
            <col />
            <col style={{ width: '21%' }} />
            <col style={{ width: '21%' }} />
            <col style={{ width: '7rem' }} />
            <col style={{ width: '7.5rem' }} />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Label</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
                  {!k.revokedAt && (
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
          </tbody>
        </Table>
      )}

      <Dialog
        open={createOpen}
        title={`Create ${noun}`}
        description="The key is shown once, right after it is created."
        onClose={() => {
          if (!create.isPending) setCreateOpen(false);
        }}
      >
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ partnerId, kind, label });
          }}
        >
          {create.error && !labelError && <Alert tone="error">{errorMessage(create.error)}</Alert>}
          <Field
            label="Label"
            name="label"
            maxLength={80}
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            error={labelError}
            hint="Where the key is used, e.g. “production” or “staging”."
            data-autofocus
          />
          <div className="dialog-actions">
            <Button onClick={() => setCreateOpen(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" pending={create.isPending} pendingLabel="Creating…">
              Create key
            </Button>
          </div>
        </form>
      </Dialog>

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
        error={revoke.error ? errorMessage(revoke.error) : null}
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate({ partnerId, keyId: revoking.id });
        }}
      />
    </Card>
  );
}
