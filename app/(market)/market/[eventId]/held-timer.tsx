'use client';

import { useEffect, useState } from 'react';

/**
 * The time left on a hold of someone else's, counted down once the page runs: "back on sale in 04:12 if not
 * bought". Before that (and without JavaScript) the server's text, the hold's end at the venue's clock: the
 * page is shared by every fan and kept while its data holds, so it carries no "minutes left" of its own.
 */
export function HeldTimer({ endsAt, until, left }: { endsAt: string; until: string; left: string }) {
  const [seconds, setSeconds] = useState<number | null>(null);
  useEffect(() => {
    const tick = () => setSeconds(Math.max(0, Math.floor((new Date(endsAt).getTime() - Date.now()) / 1000)));
    tick();
    const id = setInterval(tick, 1000);
    return () => clearInterval(id);
  }, [endsAt]);
  if (seconds === null) return <time dateTime={endsAt}>{until}</time>;
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return (
    <time dateTime={endsAt} role="timer" aria-live="off">
      {left.replace('{time}', `${mm}:${ss}`)}
    </time>
  );
}
