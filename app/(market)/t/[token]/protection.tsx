'use client';

import { useRouter } from 'next/navigation';
import { Secret, TOTP } from 'otpauth';
import { useEffect, useState } from 'react';

/** Counts down to the unlock time, then reloads the page (which then shows the code). */
export function UnlockCountdown({ at, label }: { at: string; label: string }) {
  const router = useRouter();
  const target = new Date(at).getTime();
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => {
      const ms = target - Date.now();
      setLeft(Math.max(0, ms));
      if (ms <= 0) router.refresh();
    };
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [target, router]);
  if (left === null) return null;
  const s = Math.floor(left / 1000);
  const days = Math.floor(s / 86_400);
  const hms = [Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  return (
    <p className="ticket-countdown" data-testid="countdown" aria-live="off">
      <span className="mk-muted">{label}</span> <strong>{days > 0 ? `${days}d ${hms}` : hms}</strong>
    </p>
  );
}

/**
 * The moving code (RFC 6238, computed on the phone so it works without signal at the door) with a bar
 * running down each period: a screenshot freezes both.
 */
export function MovingCode({
  keyHex,
  step,
  label,
  hint,
}: {
  keyHex: string;
  step: number;
  label: string;
  hint: string;
}) {
  const [state, setState] = useState<{ value: string; progress: number } | null>(null);
  useEffect(() => {
    // The same TOTP as the server's (protection/unlock.ts), through otpauth, from the key in hex.
    const secret = Secret.fromHex(keyHex);
    const tick = () => {
      const now = Date.now();
      const value = TOTP.generate({ secret, timestamp: now, period: step, digits: 6, algorithm: 'SHA1' });
      setState({ value, progress: 1 - ((now / 1000) % step) / step });
    };
    tick();
    const id = setInterval(tick, 250);
    return () => clearInterval(id);
  }, [keyHex, step]);
  return (
    <div className="ticket-live" data-testid="moving-code">
      <p className="mk-muted">{label}</p>
      <p className="ticket-live-code" aria-live="off">
        {state ? `${state.value.slice(0, 3)} ${state.value.slice(3)}` : '··· ···'}
      </p>
      <div className="ticket-live-bar" aria-hidden="true">
        <span style={{ width: `${Math.round((state?.progress ?? 1) * 100)}%` }} />
      </div>
      <p className="mk-muted ticket-live-hint">{hint}</p>
    </div>
  );
}

/** While a ticket awaits its reissue, looks again every 20 seconds (the new code shows up by itself). */
export function ReissueWatch() {
  const router = useRouter();
  useEffect(() => {
    const id = setInterval(() => router.refresh(), 20_000);
    return () => clearInterval(id);
  }, [router]);
  return null;
}
