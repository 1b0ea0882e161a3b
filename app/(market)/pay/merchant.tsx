/** The sandbox's hosted pages name whom the fan deals with, as a hosted checkout does: the partner, in test mode. */
export function SandboxMerchant({ partnerName, testMode }: { partnerName: string; testMode: string }) {
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
