import { z } from 'zod';
import { getDb } from '@/db';
import { sendJob } from '@/server/jobs/client';
import { defineJob } from '@/server/jobs/types';
import { deliverMail, SEND_MAIL_JOB, unsentMails } from './delivery';

const SEND_RETRIES = 8;

/** Sends one queued mail (SMTP_URL) or stores it for the mailbox; retried on SMTP errors, then `failed`. */
export const sendMailJob = defineJob({
  id: SEND_MAIL_JOB,
  description: 'Send a mail (or store it for the staff mailbox when no SMTP server is set)',
  input: z.object({ id: z.string().min(1) }),
  retries: SEND_RETRIES,
  concurrency: 2,
  run: ({ id }, ctx) => deliverMail(id, getDb(), { lastAttempt: ctx.attempt > SEND_RETRIES }),
});

/** Every minute: queues the send of mails whose job never ran (a lost after-commit send loses no mail). */
export const sweepMailJob = defineJob({
  id: 'mail.sweep',
  description: 'Queue the mails whose send job never ran',
  input: z.object({}).default({}),
  cron: '* * * * *',
  retries: 1,
  async run() {
    const ids = await unsentMails(undefined, getDb());
    for (const id of ids) await sendJob(sendMailJob, { id }, { singletonKey: id });
    return { queued: ids.length };
  },
});
