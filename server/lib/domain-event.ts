/**
 * An in-transaction event between modules: a lower module publishes, the modules above it subscribe by
 * name (in server/wiring.ts), so the publisher never imports them and the import graph has no circle.
 * Listeners run in order inside the publisher's transaction; one that throws rolls it back. `required`:
 * publishing with no subscriber throws (a cascade that must never be skipped because an entry point
 * forgot to load the wiring).
 */
export function domainEvent<A extends unknown[]>(what: string, opts: { required: boolean }) {
  const listeners = new Map<string, (...args: A) => Promise<void>>();
  return {
    /** Subscribes (again under the same name: replaces). */
    subscribe(name: string, listener: (...args: A) => Promise<void>): void {
      listeners.set(name, listener);
    },
    async publish(...args: A): Promise<void> {
      if (opts.required && !listeners.size) {
        throw new Error(`${what} has no subscribers: server/wiring.ts was not loaded by this entry point`);
      }
      for (const listener of listeners.values()) await listener(...args);
    },
  };
}
