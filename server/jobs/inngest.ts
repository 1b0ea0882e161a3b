import { Inngest } from 'inngest';
import type { JobDefinition, JobProvider, QueuedJob, SendOptions } from './types';

/** Event that triggers a definition on Inngest. */
export const eventName = (def: Pick<JobDefinition, 'id'>) => `encore/${def.id}`;

const g = globalThis as typeof globalThis & { __encoreInngest?: Inngest };

/** One client per process; keys and dev mode come from INNGEST_* variables. */
export function getInngest(): Inngest {
  g.__encoreInngest ??= new Inngest({ id: 'encore' });
  return g.__encoreInngest;
}

/**
 * Each definition becomes one Inngest function: triggered by its event (and its cron, if any), with
 * the definition's retry count. A delayed send carries `runAt`, and the function sleeps until then
 * (Inngest's event `ts` is the time an event happened, not a delay).
 */
export function inngestFunctions(inngest: Inngest, definitions: JobDefinition[]) {
  return definitions.map((def) =>
    inngest.createFunction(
      {
        id: def.id,
        name: def.description,
        retries: Math.min(def.retries ?? 3, 20) as 3,
        triggers: def.cron ? [{ event: eventName(def) }, { cron: def.cron }] : [{ event: eventName(def) }],
      },
      async ({ event, step, attempt }) => {
        const payload = (event.data ?? {}) as { input?: unknown; runAt?: string };
        if (payload.runAt && new Date(payload.runAt).getTime() > Date.now()) {
          await step.sleepUntil('wait-until-due', payload.runAt);
        }
        const input = def.input.parse(payload.input ?? {});
        return step.run(
          def.id,
          async () => (await def.run(input, { provider: 'inngest', attempt: attempt + 1 })) ?? null,
        );
      },
    ),
  );
}

/** A job as the Inngest event that triggers its function (a singleton key becomes the event's dedupe id). */
function toEvent({ name, input, opts = {} }: QueuedJob) {
  return {
    name: eventName({ id: name }),
    data: { input, ...(opts.runAt ? { runAt: opts.runAt.toISOString() } : {}) },
    ...(opts.singletonKey ? { id: `${name}:${opts.singletonKey}:${opts.runAt?.getTime() ?? 'now'}` } : {}),
  };
}

export class InngestJobProvider implements JobProvider {
  readonly name = 'inngest' as const;
  constructor(private readonly inngest: Inngest) {}

  async send(name: string, input: object, opts: SendOptions = {}): Promise<void> {
    await this.inngest.send(toEvent({ name, input, opts }));
  }

  async sendMany(jobs: QueuedJob[]): Promise<void> {
    if (jobs.length) await this.inngest.send(jobs.map(toEvent));
  }

  // Inngest calls us at /api/inngest (its functions come from the registry there); nothing runs in-process.
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}
