import { getDb } from '@/db';
import { getMail, listMails, listMailsInput, mailIdInput, resendMail } from '@/server/modules/mail';
import { protectedProcedure, router } from '../init';

/** The staff mailbox: every mail Encore sent or stored, newest first, one mail's bodies, and a resend. */
export const mailRouter = router({
  list: protectedProcedure.input(listMailsInput).query(({ input }) => listMails(input, getDb())),
  get: protectedProcedure.input(mailIdInput).query(({ input }) => getMail(input.id, getDb())),
  /** Queues the stored mail again as a new mail (support: "I never got it"). */
  resend: protectedProcedure.input(mailIdInput).mutation(({ input }) => resendMail(input.id)),
});
