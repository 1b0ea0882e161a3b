/**
 * Mail: every mail Encore sends (sign-in links, listing and sale notices, purchase confirmations,
 * cancellations and refunds), rendered per language, written in the caller's transaction and sent after
 * the commit through nodemailer and SMTP_URL, or stored for the staff mailbox without one. Owns
 * db/schema/mail.ts (mails); imports no other module (the marketplace and the sign-in page call it).
 */
export { sendMailJob, sweepMailJob } from './jobs';
export { listMailsInput, mailIdInput } from './schemas';
export { queueMail } from './delivery';
export { getMail, listMails, resendMail } from './mailbox';
export { wipeMailTestData } from './wipe';
