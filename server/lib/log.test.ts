import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** A process of its own that logs `script` (ES module code with `log`, `errorFields` and `flushLogs` in scope). */
const logIn = (script: string, level: string) =>
  run(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { log, errorFields, flushLogs } = await import('@/server/lib/log');\n${script}`,
    ],
    { env: { ...process.env, LOG_LEVEL: level } },
  );

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('log', () => {
  it('writes one JSON object a line (level, time, msg, then the fields), errors on stderr, from LOG_LEVEL up', async () => {
    const { stdout, stderr } = await logIn(
      `log.debug('hidden');
       log.info('hello', { partnerId: 'prt_1', skipped: undefined });
       log.warn('careful');
       log.error('boom', errorFields(new Error('bad')));
       await flushLogs();`,
      'info',
    );
    const out = lines(stdout);
    expect(out.map((l) => Object.keys(l))).toEqual([
      ['level', 'time', 'msg', 'partnerId'],
      ['level', 'time', 'msg'],
    ]);
    expect(out[0]).toMatchObject({ level: 'info', msg: 'hello', partnerId: 'prt_1' });
    expect(new Date(out[0].time as string).toISOString()).toBe(out[0].time);
    expect(out[1]).toMatchObject({ level: 'warn', msg: 'careful' });
    const [err] = lines(stderr);
    expect(err).toMatchObject({ level: 'error', msg: 'boom', error: 'bad' });
    expect(err.stack).toContain('Error: bad');
  });

  it('loses no line when the process exits right after writing many, nor logs anything when silent', async () => {
    const script = `for (let i = 0; i < 5000; i++) log.info('line', { i });
       log.info('last');
       process.exit(0);`;
    const { stdout } = await logIn(script, 'info');
    const out = lines(stdout);
    expect(out).toHaveLength(5001);
    expect(out.at(-1)).toMatchObject({ msg: 'last' });
    expect((await logIn(script, 'silent')).stdout).toBe('');
  });
});
