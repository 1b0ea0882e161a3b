import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A production process's error reports, each kind once, and a rejection nothing handles, reported again as
// Next.js's own handler does: run in a child process (node with the tsx loader), since it installs
// process-wide handlers.
const SCRIPT = `
import { installErrorLines, logRequestError } from './server/lib/error-lines.ts';
installErrorLines();
const failed = Object.assign(new Error('render failed'), { digest: '123' });
logRequestError(failed, { path: '/market/evt_1?show=2', method: 'GET', headers: { 'x-request-id': 'req-1' } },
  { routePath: '/market/[eventId]', routeType: 'render' });
console.error(' ⨯', failed);
console.error('\\u001b[31m⨯\\u001b[39m a library said %s', 'this', new TypeError('bad type'));
console.warn('⚠ careful');
const nobody = new Error('nobody waited');
process.on('unhandledRejection', (reason) => console.error('unhandledRejection:', reason));
setTimeout(() => void Promise.reject(nobody), 10);
setTimeout(() => console.log(JSON.stringify({ msg: 'still running' })), 200);
`;

describe('error lines', () => {
  it('writes every error a process reports as one JSON line, and goes on after a rejection nothing handled', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      cwd: process.cwd(),
      encoding: 'utf8',
      env: { ...process.env, LOG_LEVEL: 'info' },
      timeout: 30_000,
    });
    expect(run.status).toBe(0);
    const lines = `${run.stdout}${run.stderr}`.split('\n').filter(Boolean);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const byMsg = (msg: string) => parsed.filter((l) => l.msg === msg);

    // The failed request: once (Next.js's second report of the same error is dropped), with its context.
    expect(byMsg('request failed')).toEqual([
      expect.objectContaining({
        level: 'error',
        requestId: 'req-1',
        method: 'GET',
        path: '/market/evt_1',
        route: '/market/[eventId]',
        digest: '123',
        error: 'render failed',
        stack: expect.stringContaining('Error: render failed'),
      }),
    ]);
    expect(byMsg('a library said this')).toEqual([
      expect.objectContaining({ level: 'error', error: 'bad type', stack: expect.stringContaining('TypeError') }),
    ]);
    expect(byMsg('careful')).toEqual([expect.objectContaining({ level: 'warn' })]);
    // One line, though two handlers (ours and Next.js's) reported it.
    expect(parsed.filter((l) => l.error === 'nobody waited')).toEqual([
      expect.objectContaining({ level: 'error', msg: 'unhandled promise rejection' }),
    ]);
    expect(byMsg('still running')).toHaveLength(1);
    expect(parsed).toHaveLength(5);
  });
});
