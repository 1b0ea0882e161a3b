import type { ReactNode } from 'react';

/** The sandbox's hosted pages name whom the fan deals with, as a hosted checkout does: the partner, in test mode. */
function SandboxMerchant({ partnerName, testMode }: { partnerName: string; testMode: string }) {
  return (
    <p className="co-merchant">
      <span className="co-logo" aria-hidden="true">
        {partnerName.slice(0, 1).toUpperCase()}
      </span>
      {partnerName}
      <span className="co-badge">{testMode}</span>
    </p>
  );
}

/**
 * A sandbox hosted page's two columns, as a hosted checkout lays them out: whom the fan deals with and
 * what for (`summary`) beside the step itself.
 */
export function SandboxPage({
  label,
  partnerName,
  testMode,
  summary,
  children,
}: {
  label: string;
  partnerName: string;
  testMode: string;
  summary: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="co">
      <aside className="co-summary" aria-label={label}>
        <div>
          <SandboxMerchant partnerName={partnerName} testMode={testMode} />
          {summary}
        </div>
      </aside>
      <main className="co-main">
        <div>{children}</div>
      </main>
    </div>
  );
}
