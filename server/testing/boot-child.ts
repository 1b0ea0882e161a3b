// Test helper process: a whole app instance's start-up (bootApp: migrations, session secret, first admin,
// demo partner, job queues and schedules) on the database given, as `npm start` runs it. Prints READY,
// or FAILED and the error, then waits until the test closes its stdin. BOOT_CHILD_SEED=1 seeds a demo
// partner and an admin (an empty database's first start). Like `npm start`, it answers SIGTERM by
// closing its (here absent) HTTP server and calling process.exit(143) at once. BOOT_CHILD_HEALTH=1 prints
// `HEALTH <status>` of GET /healthz once READY and again as soon as SIGTERM has been taken.
import { resetEnvCache } from '@/server/env';

process.env.DATABASE_URL = process.argv[2];
process.env.DEMO_PARTNER = process.env.BOOT_CHILD_SEED === '1' ? '1' : '0';
if (process.env.BOOT_CHILD_SEED === '1') {
  process.env.ADMIN_EMAIL = 'boot-admin@encore.test';
  process.env.ADMIN_PASSWORD = 'boot-password-1';
}
process.env.LOG_LEVEL = 'error';
process.env.ALLOW_PRIVATE_PARTNER_URLS = '1';
// Registered before the app's own handlers, as Next.js's are.
process.on('SIGTERM', () => {
  // After every handler of this signal (the app's own marks the instance draining).
  if (process.env.BOOT_CHILD_HEALTH === '1') setImmediate(() => void printHealth());
  setTimeout(() => process.exit(143), 50);
});

async function printHealth(): Promise<void> {
  const { GET } = await import('@/app/healthz/route');
  process.stdout.write(`HEALTH ${(await GET()).status}\n`);
}
delete process.env.NEXTAUTH_SECRET;
resetEnvCache();

const { bootApp } = await import('@/server/boot');
try {
  await bootApp();
  if (process.env.BOOT_CHILD_HEALTH === '1') await printHealth();
  process.stdout.write('READY\n');
} catch (err) {
  process.stdout.write(`FAILED ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
}
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
setInterval(() => {}, 1 << 30);
