import type { inferRouterOutputs } from '@trpc/server';
import { useId } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, SectionCard } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState } from '@/components/ui/empty-state';
import { Table } from '@/components/ui/table';
import { Time } from '@/components/ui/time';
import type { AppRouter } from '@/server/trpc/router';
import styles from './webhooks.module.css';

type Attempt = inferRouterOutputs<AppRouter>['webhooks']['messages']['get']['attempts'][number];

/** The message's body as it is sent, with a button that copies it. */
export function MessageBody({ body }: { body: string }) {
  const bodyHeadingId = useId();
  return (
    <Card aria-labelledby={bodyHeadingId}>
      <div className="card-body">
        <div className={styles.bodyHeader}>
          <h2 className="card-title" id={bodyHeadingId}>
            Body
          </h2>
          <CopyButton value={body} what="body" />
        </div>
        <pre className={styles.json} tabIndex={0} aria-label="Message body (JSON)">
          {body}
        </pre>
      </div>
    </Card>
  );
}

/** Every delivery attempt, newest first: the receiver's answer and the headers Encore sent. */
export function AttemptsSection({ attempts }: { attempts: Attempt[] }) {
  return (
    <SectionCard title="Attempts" description="Newest first. The receiver's answer is kept up to its first kilobyte.">
      {attempts.length === 0 ? (
        <div className="card-body">
          <EmptyState title="No attempts yet" description="The first attempt is made as soon as the message is due." />
        </div>
      ) : (
        <Table
          label="Delivery attempts"
          columns={[
            { label: '#', num: true },
            'Time',
            { label: 'Duration', num: true },
            'HTTP status',
            'Error',
            'Response',
            'Request headers',
          ]}
        >
          {attempts.map((a) => (
            <tr key={a.id} data-attempt={a.attemptNo}>
              <td className="num">{a.attemptNo}</td>
              <td className={styles.nowrap}>
                <Time value={a.startedAt} seconds />
              </td>
              <td className="num">{a.durationMs} ms</td>
              <td className={styles.nowrap}>
                {a.statusCode ? (
                  <Badge tone={a.success ? 'success' : 'danger'}>{a.statusCode}</Badge>
                ) : (
                  <span className="muted">No answer</span>
                )}
              </td>
              <td className={styles.attemptError}>{a.error ?? <span className="muted">—</span>}</td>
              <td>
                {a.responseBody ? (
                  <details className={styles.response}>
                    <summary>Show ({new TextEncoder().encode(a.responseBody).length} B)</summary>
                    <pre>{a.responseBody}</pre>
                  </details>
                ) : (
                  <span className="muted">Empty</span>
                )}
              </td>
              <td>
                {a.requestHeaders ? (
                  <details className={styles.response} data-testid="attempt-headers">
                    <summary>Headers ({Object.keys(a.requestHeaders).length})</summary>
                    <pre>
                      {Object.entries(a.requestHeaders)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join('\n')}
                    </pre>
                  </details>
                ) : (
                  <span className="muted">Not recorded</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </SectionCard>
  );
}
