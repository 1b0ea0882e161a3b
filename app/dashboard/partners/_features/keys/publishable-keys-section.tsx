'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { ACTIONS_COLUMN, Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { embedPath } from '../../_shared/paths';

interface Props {
  /** The partner shown (a live partner, or a test twin on its own page). */
  partnerId: string;
  /** On a live partner's page: its test twin, whose `pk_test_…` key is listed too. */
  testPartnerId?: string;
}

interface Rotating {
  partnerId: string;
  keyId: string;
  prefix: string;
  mode: string;
}

const COLUMNS = ['Mode', 'Publishable key', 'Created', 'Last used', ACTIONS_COLUMN];
const WIDTHS = ['5.5rem', undefined, '20%', '20%', '7rem'];

/**
 * The partner's publishable keys (`pk_live_…`, and its twin's `pk_test_…`): what its web pages' widget sends.
 * Not secrets, so shown whole with a copy button; Rotate (behind a confirmation) replaces one at once.
 */
export function PublishableKeysSection({ partnerId, testPartnerId }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rotating, setRotating] = useState<Rotating | null>(null);
  const rotate = useMutation(
    trpc.partners.publishableKeys.rotate.mutationOptions({
      onSuccess: () => {
        setRotating(null);
        return queryClient.invalidateQueries({ queryKey: trpc.partners.publishableKeys.pathKey() });
      },
    }),
  );
  const onRotate = (r: Rotating) => {
    rotate.reset();
    setRotating(r);
  };

  return (
    <SectionCard
      data-testid="publishable-keys"
      title="Publishable keys"
      actions={
        <ButtonLink size="sm" href={embedPath(partnerId)}>
          Embed the widget
        </ButtonLink>
      }
      description="For the widget on the partner's web pages: not secret, they open only the buy access layer (GET /v1/wrapper/accesslayer), and only for the allowed widget origins (Partner settings). Never put a secret key (sk_…) in a web page."
    >
      <Table label="Publishable keys" fixed columns={COLUMNS} widths={WIDTHS}>
        <KeyRow partnerId={partnerId} onRotate={onRotate} />
        {testPartnerId ? <KeyRow partnerId={testPartnerId} onRotate={onRotate} /> : null}
      </Table>
      <ConfirmDialog
        open={rotating !== null}
        title={`Rotate the ${rotating?.mode ?? ''} publishable key?`}
        description={
          <p>
            {rotating?.prefix}… is refused at once (other servers within seconds) and a new key replaces it. Every page
            that shows the widget with the old key stops showing it until it is given the new one.
          </p>
        }
        confirmLabel="Rotate key"
        pendingLabel="Rotating…"
        pending={rotate.isPending}
        error={rotate.error}
        onCancel={() => setRotating(null)}
        onConfirm={() => {
          if (rotating) rotate.mutate({ partnerId: rotating.partnerId, keyId: rotating.keyId });
        }}
      />
    </SectionCard>
  );
}

/** One partner row's active publishable key: whole, with copy and rotate. */
function KeyRow({ partnerId, onRotate }: { partnerId: string; onRotate: (r: Rotating) => void }) {
  const trpc = useTRPC();
  const admin = useMay('admin', 'develop');
  const { data: key } = useSuspenseQuery(trpc.partners.publishableKeys.get.queryOptions({ partnerId }));
  if (!key) {
    return (
      <tr>
        <td colSpan={5} className="muted">
          No publishable key
        </td>
      </tr>
    );
  }
  const mode = key.key.startsWith('pk_test_') ? 'test' : 'live';
  return (
    <tr data-testid={`publishable-key-${mode}`}>
      <td>{mode === 'test' ? 'Test' : 'Live'}</td>
      <td>
        <div className="secret-row">
          <code className="secret-value" data-testid="publishable-key-value">
            {key.key}
          </code>
          <CopyButton value={key.key} what={`${mode} publishable key`} />
        </div>
      </td>
      <td>
        <Time value={key.createdAt} />
      </td>
      <td>
        <Time value={key.lastUsedAt} fallback="Never" />
      </td>
      <td className="actions">
        {admin && (
          <Button
            size="sm"
            variant="ghost"
            className="btn-danger-text"
            aria-label={`Rotate ${key.prefix}…`}
            onClick={() => onRotate({ partnerId, keyId: key.id, prefix: key.prefix, mode })}
          >
            Rotate
          </Button>
        )}
      </td>
    </tr>
  );
}
