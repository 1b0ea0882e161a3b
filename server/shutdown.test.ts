import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// As server/start.ts runs it: the server's own SIGTERM handler (a `once`, registered before boot installs the
// graceful shutdown) closes the server after the request in flight, then exits; the process must not exit
// before that request is answered. In a child process: it installs process-wide handlers and exits.
const SCRIPT = `
import { SERVER_ENTRY } from './server/server-entry.ts';
import { installGracefulShutdown } from './server/shutdown.ts';
globalThis[SERVER_ENTRY] = true;
process.once('SIGTERM', () => {
  // A request in flight, answered 300 ms later; then the server is closed and exits.
  setTimeout(() => { console.log('request answered'); process.exit(0); }, 300);
});
installGracefulShutdown();
setTimeout(() => process.kill(process.pid, 'SIGTERM'), 10);
// Keeps the process alive until the signal is handled (else it could end first); a bound, never reached.
setTimeout(() => { console.log('never stopped'); process.exit(2); }, 20_000);
`;

describe('graceful shutdown under Encore’s server', () => {
  it('exits only after the server’s own handler answered the requests in flight', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: process.cwd(),
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'silent' },
      timeout: 30_000,
    });
    expect(run.stdout).toContain('request answered');
    expect(run.status).toBe(0);
  });
});
