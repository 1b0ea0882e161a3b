'use client';

import { useEffect, useState } from 'react';

function left(expiresAt: string): number {
  return Math.max(0, Math.floor((new Date(expiresAt).getTime() - Date.now()) / 1000));
}

/**
 * The time left on the fan's hold (mm:ss). At zero it shows `expired` instead (with its way back): the
 * server releases the hold at the same moment. At zero the page's `<body>` also carries
 * `data-hold-expired`, so what no longer applies (the card form of the payment page) hides by CSS.
 */
export function HoldCountdown({
  expiresAt,
  label,
  expired,
}: {
  expiresAt: string;
  label: string;
  expired: React.ReactNode;
}) {
  const [seconds, setSeconds] = useState(() => left(expiresAt));
  useEffect(() => {
    const id = setInterval(() => setSeconds(left(expiresAt)), 1000);
    return () => clearInterval(id);
  }, [expiresAt]);
  const over = seconds <= 0;
  useEffect(() => {
    if (!over) return;
    document.body.dataset.holdExpired = 'true';
    return () => void delete document.body.dataset.holdExpired;
  }, [over]);
  if (over) return <div data-testid="hold-expired">{expired}</div>;
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return (
    <p className="mk-notice" data-testid="hold-timer">
      {label}{' '}
      <span className="mk-timer" role="timer" suppressHydrationWarning>
        {mm}:{ss}
      </span>
    </p>
  );
}
