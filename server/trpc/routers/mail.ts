import { getDb } from '@/db';
import { audited, staffActor } from '@/server/modules/audit';
import { getMail, listMails, listMailsInput, mailIdInput, resendMail } from '@/server/modules/mail';
import { staffProcedure, router } from '../init';

/** The staff mailbox: every mail Encore sent or stored, newest first, one mail's bodies, and a resend. */
export const mailRouter = router({
  list: staffProcedure('read')
    .input(listMailsInput)
    .query(({ input }) => listMails(input, getDb())),
  get: staffProcedure('read')
    .input(mailIdInput)
    .query(({ input }) => getMail(input.id, getDb())),
  /** Queues the stored mail again as a new mail (support: "I never got it"); recorded in the audit log. */
  resend: staffProcedure('support')
    .input(mailIdInput)
    .mutation(({ input, ctx }) =>
      audited(
        (work) => resendMail(input.id, work),
        {
          actor: staffActor(ctx.staff),
          action: 'mail.resent',
          partnerId: (r) => r.partnerId,
          target: { type: 'mail', id: input.id },
        },
        getDb(),
      ),
    ),
});
