import { Badge } from '@/components/ui/badge';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import { type AuditEntry, changedFields } from '@/server/modules/audit';
import styles from './audit.module.css';

const ACTOR_KIND: Record<AuditEntry['actorKind'], string> = {
  staff: 'Staff',
  partner_user: 'Partner user',
  partner_key: 'Partner key',
  channel_key: 'Channel key',
  system: 'System',
};

/** A recorded value as staff read it: text as is, nothing as "—", anything else as compact JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Before → after of each changed field; a creation or deletion shows only its side. */
function Changes({ entry }: { entry: AuditEntry }) {
  const changes = changedFields(entry.before, entry.after);
  if (!changes.length) return <span className="muted">No field changed</span>;
  return (
    <ul className={styles.changes}>
      {changes.map((c) => (
        <li key={c.field}>
          <span className={styles.field}>{c.field}</span>:{' '}
          <span className={styles.before} aria-label={`before: ${shown(c.before)}`}>
            {shown(c.before)}
          </span>{' '}
          <span aria-hidden="true">→</span>{' '}
          <span className={styles.after} aria-label={`after: ${shown(c.after)}`}>
            {shown(c.after)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Entries of the audit log: when, who, what, and before → after of the fields that changed. */
export function AuditEntries({ items, label }: { items: AuditEntry[]; label: string }) {
  return (
    <Table label={label} columns={['When', 'Who', 'What', 'Changes']} bodyTestId="audit-entries">
      {items.map((e) => (
        <tr key={e.id} data-testid="audit-entry">
          <td>
            <Time value={e.at} seconds />
          </td>
          <td>
            <div>{e.actorLabel}</div>
            <Badge>{ACTOR_KIND[e.actorKind]}</Badge>
          </td>
          <td>
            <code className="mono">{e.action}</code>
            <div className="muted">
              {e.targetType} <code className="mono">{e.targetId}</code>
            </div>
            {e.partnerId && <div className="muted">partner {e.partnerId}</div>}
          </td>
          <td>
            <Changes entry={e} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
