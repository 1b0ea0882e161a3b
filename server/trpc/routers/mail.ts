import { getDb } from '@/db';
import { getMail, listMails, listMailsInput, mailIdInput } from '@/server/modules/mail';
import { protectedProcedure, router } from '../init';

/** The staff mailbox: every mail Encore sent or stored, newest first, and one mail's bodies. */
export const mailRouter = router({
  list: protectedProcedure.input(listMailsInput).query(({ input }) => listMails(input, getDb())),
  get: protectedProcedure.input(mailIdInput).query(({ input }) => getMail(input.id, getDb())),
});
