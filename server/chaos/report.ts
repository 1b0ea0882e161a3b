import type { AppInstance, LogLine } from './apps';
import type { Answer } from './traffic';

/** Seconds with one decimal: `1.4 s`. */
export function secs(ms: number | null): string {
  return ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `503×180 (Retry-After 180/180) 200×32 refused×4 500×0`: most frequent first, 500 always shown. */
export function tally(answers: Answer[]): string {
  const counts = new Map<string, { n: number; retryAfter: number }>();
  for (const a of answers) {
    const c = counts.get(String(a.status)) ?? { n: 0, retryAfter: 0 };
    c.n++;
    if (a.retryAfter) c.retryAfter++;
    counts.set(String(a.status), c);
  }
  if (!counts.has('500')) counts.set('500', { n: 0, retryAfter: 0 });
  return [...counts.entries()]
    .sort((a, b) => (a[0] === '500' ? 1 : b[0] === '500' ? -1 : b[1].n - a[1].n))
    .map(([status, c]) => `${status}×${c.n}${status === '503' ? ` (Retry-After ${c.retryAfter}/${c.n})` : ''}`)
    .join(' ');
}

/** The answers that are errors of ours: a 5xx other than the outage's 503. */
export function serverErrors(answers: Answer[]): Answer[] {
  return answers.filter((a) => typeof a.status === 'number' && a.status >= 500 && a.status !== 503);
}

export const is2xx = (a: Answer) => typeof a.status === 'number' && a.status >= 200 && a.status < 300;

/** Milliseconds from `after` to the first 2xx of `instance` for a request sent at or after it; null if none. */
export function firstOk(answers: Answer[], instance: number, after: number): number | null {
  let first: number | null = null;
  for (const a of answers) {
    if (a.instance === instance && a.sentAt >= after && is2xx(a) && (first === null || a.at < first)) first = a.at;
  }
  return first === null ? null : first - after;
}

/** The instances' warn and error lines between `from` and `to`, by message: `database unavailable ×12, …`. */
export function logSummary(logs: LogLine[], from: number, to: number): string {
  const counts = new Map<string, number>();
  for (const l of logs) {
    if (l.at < from || l.at > to || (l.level !== 'warn' && l.level !== 'error' && l.level !== 'fatal')) continue;
    const key = `${l.msg.slice(0, 90)} (${l.level})`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const parts = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([m, n]) => `${m} ×${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** Each 5xx other than 503 as one line naming its route, instance, status, request id and the log line it left. */
export function describeErrors(fault: string, errors: Answer[], logs: LogLine[]): string[] {
  return errors.map((a) => {
    const line = logs.find((l) => a.requestId && l.fields.requestId === a.requestId);
    const logged = line ? ` · log: ${JSON.stringify(line.fields).slice(0, 400)}` : '';
    return `${fault}: ${a.route} on instance ${'AB'[a.instance]} answered ${a.status} (request ${a.requestId ?? '?'})${a.detail ? ` · body: ${a.detail.slice(0, 160)}` : ''}${logged}`;
  });
}

/** `A 0.3 s, B 1.2 s` from each instance's figure; one that crashed since `from` is said so. */
export function eachInstance(apps: AppInstance[], figure: (app: AppInstance) => number | null, from: number): string {
  return apps
    .map((app) => {
      const crashed = app.crashes.some((t) => t >= from) ? ' (crashed, restarted)' : '';
      const ms = figure(app);
      return `${app.name} ${ms === null ? 'none' : secs(ms)}${crashed}`;
    })
    .join(', ');
}
