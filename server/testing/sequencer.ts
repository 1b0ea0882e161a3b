import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that start processes of their own (app instances, CLIs through tsx, embedded clusters) run for
 * 30–100 s each though they are small. Vitest's default order (on a fresh clone: by file size, largest
 * first) left them for last, so the run ended with one worker on them and the other idle. They go first,
 * beside the rest; the order inside each group stays Vitest's.
 */
const LONG_FILES = [
  'db/embedded.test.ts',
  'server/boot.test.ts',
  'db/backup.test.ts',
  'server/cli/payment-test.test.ts',
  'server/modules/tickets/restart.test.ts',
  'db/migrations.test.ts',
  'server/lib/log.test.ts',
  'server/modules/webhooks/webhooks.test.ts',
  'server/modules/staff/staff.test.ts',
];

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES.findIndex((name) => spec.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONG_FILES.length : i;
    };
    return sorted
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
      .map((x) => x.spec);
  }
}
