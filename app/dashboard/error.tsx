'use client';

import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

/** Unexpected failures inside the dashboard: a readable message and a retry, the navigation stays usable. */
export default function DashboardError({ error, retry }: { error: unknown; retry: () => void }) {
  // Next.js replaces server error messages with a digest that matches the server log line.
  const digest = (error as { digest?: unknown } | null)?.digest;
  return (
    <EmptyState
      title="This page could not be loaded"
      description={
        <>
          Something went wrong on our side. Try again; if it keeps failing, report reference{' '}
          <code className="mono">{typeof digest === 'string' ? digest : 'n/a'}</code>.
        </>
      }
      action={
        <Button variant="primary" onClick={() => retry()}>
          Try again
        </Button>
      }
    />
  );
}
