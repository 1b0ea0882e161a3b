import { formatCount } from '../../_shared/format';
import styles from './batches.module.css';

/** Imported / failed / pending of total, as text (what screen readers read) and as a stacked bar. */
export function BatchProgress({
  batch,
}: {
  batch: { total: number; imported: number; failed: number; pending: number };
}) {
  const pct = (n: number) => (batch.total ? `${(100 * n) / batch.total}%` : '0%');
  return (
    <span className={styles.progress}>
      <span className={styles.bar} aria-hidden="true">
        <span className={styles.barImported} style={{ width: pct(batch.imported) }} />
        <span className={styles.barFailed} style={{ width: pct(batch.failed) }} />
      </span>
      <span className={styles.progressText}>
        {formatCount(batch.imported)} imported · {formatCount(batch.failed)} failed · {formatCount(batch.pending)}{' '}
        pending of {formatCount(batch.total)}
      </span>
    </span>
  );
}
