/**
 * Single flight: callers asking for one key while a call for it is in flight share that call's answer
 * instead of starting their own; once it settles, the next caller starts a new one. Nothing is kept after
 * that (a cache is short-cache.ts), so an answer is never older than the call it came from, and the calls
 * in flight are at most the keys being asked for at that moment.
 */
export function singleFlight<T>(): (key: string, call: () => Promise<T>) => { answer: Promise<T>; joined: boolean } {
  const flying = new Map<string, Promise<T>>();
  return (key, call) => {
    const current = flying.get(key);
    if (current) return { answer: current, joined: true };
    const answer = (async () => call())().finally(() => {
      if (flying.get(key) === answer) flying.delete(key);
    });
    flying.set(key, answer);
    return { answer, joined: false };
  };
}
