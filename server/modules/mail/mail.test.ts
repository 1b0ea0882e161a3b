import { getDb } from '@/db';
import { sellerMarket } from '@/server/testing/market';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as buyIntentionPost } from '@/app/v1/marketplace/buyingflow/buyIntention/route';
import { POST as cancelPost } from '@/app/v1/events/[externalReferenceId]/cancellation/route';
import { mails } from '@/db/schema';
import { transaction } from '@/server/lib/transaction';
import { redeemOneTimeToken, requestSignInLink } from '@/server/modules/fans';
import { createListing, refundPurchase } from '@/server/modules/marketplace';
import { setPartnerDisabled } from '@/server/modules/partners';
import { secureViewByToken } from '@/server/modules/tickets';
import { setEnv } from '@/server/testing/env';
import { apiRequest, makePartner, routeParams } from '@/server/testing/fixtures';
import { recordJobs } from '@/server/testing/jobs';
import { payOnSandbox } from '@/server/testing/payments';
import { deleteTicket } from '@/server/testing/ticket-api';
import { sendMailJob, sweepMailJob } from './jobs';
import { queueMail } from './delivery';
import { listMails, resendMail } from './mailbox';

/* ---------- a real SMTP server in the test process ---------- */

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let smtpPort: number;
const inbox: Received[] = [];

/** Decodes MIME encoded words (`=?UTF-8?Q?…?=`) of a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQp(text.replace(/_/g, ' ')),
    );
}

function decodeQp(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The subject and the decoded text and HTML parts of a raw message (what nodemailer writes). */
function parse(raw: string) {
  const [head] = raw.split(/\r\n\r\n/);
  const headers = head.replace(/\r\n[ \t]+/g, ' ');
  const subject = decodeWords(/^Subject: (.*)$/im.exec(headers)?.[1] ?? '');
  const parts: Record<string, string> = {};
  for (const part of raw.split(/\r\n--[^\r\n]+\r\n/)) {
    const type = /Content-Type: text\/(plain|html)/i.exec(part)?.[1];
    if (!type) continue;
    const [partHead, ...body] = part.split(/\r\n\r\n/);
    const content = body.join('\r\n\r\n').split(/\r\n--/)[0];
    const encoding = /Content-Transfer-Encoding: (\S+)/i.exec(partHead)?.[1]?.toLowerCase();
    parts[type] =
      encoding === 'quoted-printable'
        ? decodeQp(content)
        : encoding === 'base64'
          ? Buffer.from(content, 'base64').toString('utf8')
          : content;
  }
  return { subject, text: parts.plain ?? '', html: parts.html ?? '' };
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

let jobs: ReturnType<typeof recordJobs>;
let restoreEnv: () => void;
beforeEach(() => {
  jobs = recordJobs();
  restoreEnv = setEnv({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'Encore <no-reply@encore.test>' });
  return () => {
    restoreEnv();
    jobs.restore();
  };
});

const send = (id: string, attempt = 1) => sendMailJob.run({ id }, { provider: 'local', attempt });
const mailRow = async (id: string) => (await getDb().select().from(mails).where(eq(mails.id, id)))[0];
const sentJobs = () => jobs.sent.filter((j) => j.name === 'mail.send').map((j) => (j.input as { id: string }).id);
const unique = (name: string) => `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@fans.test`;
const inboxOf = (to: string) => inbox.filter((m) => m.to.includes(to)).map((m) => ({ ...m, ...parse(m.raw) }));

/* ---------- the mail module ---------- */

describe('queueMail and the send job', () => {
  it('sends a queued mail through SMTP after the commit, with the subject and body of its language', async () => {
    const { partner } = await makePartner('Teatro');
    const en = unique('en');
    const es = unique('es');
    const [idEn, idEs] = await transaction(
      async (work) => [
        await queueMail(work, {
          partnerId: partner.id,
          to: en.toUpperCase(),
          kind: 'signInLink',
          locale: 'en',
          data: { partnerName: partner.name, url: 'http://encore.test/auth/redeem?token=x&next=%2Fme', minutes: 15 },
        }),
        await queueMail(work, {
          partnerId: partner.id,
          to: es,
          kind: 'listingCreated',
          locale: 'es',
          data: {
            partnerName: partner.name,
            eventTitle: 'Ópera <Carmen> & "amigos"',
            showDate: 'sáb, 14 mar 2026, 21:00',
            price: '50,00 €',
            payout: '47,50 €',
            listingUrl: 'http://encore.test/listing/lst_1',
            payoutDue: { dueAt: new Date('2026-03-16T12:00:00Z'), delayDays: 2, timeZone: 'Europe/Madrid' },
          },
        }),
      ],
      getDb(),
    );
    // Queued in the transaction, sent by the job the commit queued.
    expect(sentJobs()).toEqual([idEn, idEs]);
    expect((await mailRow(idEn)).status).toBe('queued');

    expect(await send(idEn)).toEqual({ id: idEn, status: 'sent' });
    expect(await send(idEs)).toEqual({ id: idEs, status: 'sent' });

    const [gotEn] = inboxOf(en);
    expect(gotEn.from).toBe('no-reply@encore.test');
    expect(gotEn.subject).toBe(`Your sign-in link for ${partner.name}`);
    expect(gotEn.text).toContain('The link works once and expires in 15 minutes.');
    expect(gotEn.text).toContain('Sign in: http://encore.test/auth/redeem?token=x&next=%2Fme');
    expect(gotEn.html).toContain('<html lang="en">');
    expect(gotEn.html).toContain('href="http://encore.test/auth/redeem?token=x&amp;next=%2Fme"');

    const [gotEs] = inboxOf(es);
    expect(gotEs.subject).toBe('Tus entradas para Ópera <Carmen> & "amigos" están a la venta');
    expect(gotEs.text).toContain('están a la venta por 50,00 € cada una');
    expect(gotEs.text).toContain('Cuando se vendan recibirás 47,50 €');
    // Values are escaped in the HTML body.
    expect(gotEs.html).toContain('Ópera &lt;Carmen&gt; &amp; &quot;amigos&quot;');
    expect(gotEs.html).not.toContain('<Carmen>');

    const row = await mailRow(idEn);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, toAddress: en, locale: 'en', lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);

    // Running the job again (a retry, a duplicate send) sends nothing twice.
    expect(await send(idEn)).toEqual({ id: idEn, status: 'sent' });
    expect(inboxOf(en)).toHaveLength(1);
  });

  it('without SMTP_URL the mail is stored for the mailbox, not sent', async () => {
    setEnv({ SMTP_URL: undefined });
    const to = unique('stored');
    const id = await transaction(
      (work) =>
        queueMail(work, {
          partnerId: null,
          to,
          kind: 'purchaseRefunded',
          data: { partnerName: 'P', eventTitle: 'E', amount: '€10.00', reason: 'staff' },
        }),
      getDb(),
    );
    expect(await send(id)).toEqual({ id, status: 'stored' });
    expect(await mailRow(id)).toMatchObject({ status: 'stored', attempts: 1, locale: 'en' });
    expect(inboxOf(to)).toEqual([]);
    const listed = await listMails({ to: to.toUpperCase() }, getDb());
    expect(listed).toMatchObject({
      total: 1,
      items: [{ id, subject: 'Refund for your tickets for E', status: 'stored' }],
    });
  });

  it('a rolled-back transaction leaves no mail and queues no send', async () => {
    const to = unique('rollback');
    await expect(
      transaction(async (work) => {
        await queueMail(work, {
          partnerId: null,
          to,
          kind: 'signInLink',
          data: { partnerName: 'P', url: 'http://encore.test/x', minutes: 15 },
        });
        throw new Error('the purchase failed');
      }, getDb()),
    ).rejects.toThrow('the purchase failed');
    expect(await getDb().select().from(mails).where(eq(mails.toAddress, to))).toEqual([]);
    expect(sentJobs()).toEqual([]);
  });

  it('an unreachable SMTP server: the error is kept and the job retries; its last attempt marks the mail failed', async () => {
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const id = await transaction(
      (work) =>
        queueMail(work, {
          partnerId: null,
          to: unique('retry'),
          kind: 'signInLink',
          data: { partnerName: 'P', url: 'http://encore.test/x', minutes: 15 },
        }),
      getDb(),
    );
    await expect(send(id, 1)).rejects.toThrow();
    expect(await mailRow(id)).toMatchObject({ status: 'queued', attempts: 1, lastError: expect.any(String) });
    expect(await send(id, 9)).toEqual({ id, status: 'failed' }); // retries: 8, so attempt 9 is the last
    expect(await mailRow(id)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await send(id, 1)).toEqual({ id, status: 'failed' }); // given up: not tried again
  });

  it('the sweep queues the send of a mail whose job never ran', async () => {
    const to = unique('sweep');
    // A writer with a bare transaction (no after-commit list): nothing is queued at the commit.
    const id = await getDb().transaction((tx) =>
      queueMail(tx, {
        partnerId: null,
        to,
        kind: 'signInLink',
        data: { partnerName: 'P', url: 'http://encore.test/x', minutes: 15 },
      }),
    );
    expect(sentJobs()).toEqual([]);
    await sweepMailJob.run({}, { provider: 'local', attempt: 1 });
    expect(sentJobs()).not.toContain(id); // too fresh: its own job may still be on the way
    await getDb()
      .update(mails)
      .set({ createdAt: sql`now() - interval '2 minutes'` as unknown as Date })
      .where(eq(mails.id, id));
    await sweepMailJob.run({}, { provider: 'local', attempt: 1 });
    expect(sentJobs()).toContain(id);
    await send(id);
    expect(inboxOf(to)).toHaveLength(1);
  });
});

/* ---------- fan sign-in by e-mail ---------- */

describe('resendMail (staff)', () => {
  it('queues the stored mail again as a new mail the send job delivers over SMTP; the original stays as it was', async () => {
    const { partner } = await makePartner('Resend');
    const to = unique('resend');
    const original = await transaction(
      (work) =>
        queueMail(work, {
          partnerId: partner.id,
          to,
          kind: 'purchaseRefunded',
          locale: 'es',
          data: { partnerName: partner.name, eventTitle: 'Carmen', amount: '10,00 €', reason: 'staff' },
        }),
      getDb(),
    );
    await send(original);
    expect(inboxOf(to)).toHaveLength(1);
    const before = await mailRow(original);

    const resent = await resendMail(original, getDb());
    expect(resent.resentFrom).toBe(original);
    expect(resent.id).not.toBe(original);
    // Durable: the copy is a queued row, and its send job was asked for after the commit.
    expect(await mailRow(resent.id)).toMatchObject({
      status: 'queued',
      attempts: 0,
      toAddress: to,
      partnerId: partner.id,
      locale: 'es',
      subject: before.subject,
      textBody: before.textBody,
    });
    expect(sentJobs()).toContain(resent.id);
    expect(await send(resent.id)).toEqual({ id: resent.id, status: 'sent' });
    const got = inboxOf(to);
    expect(got).toHaveLength(2);
    expect(got[1].subject).toBe(got[0].subject);
    expect(got[1].raw).toMatch(new RegExp(`^X-Encore-Mail-Id: ${resent.id}$`, 'im'));
    expect(await mailRow(original)).toEqual(before);
    expect((await listMails({ to }, getDb())).total).toBe(2);
  });

  it('an unknown mail is a 404, and nothing is queued', async () => {
    await expect(resendMail('mail_nope', getDb())).rejects.toMatchObject({ status: 404 });
    expect(sentJobs()).toEqual([]);
  });
});

describe('sign-in link by e-mail', () => {
  it('mails a link (in the fan’s language) that signs the fan in for that partner exactly once', async () => {
    const { partner } = await makePartner('Signin');
    const email = unique('Fan');
    const result = await requestSignInLink(
      {
        partnerId: partner.id,
        email: ` ${email.toUpperCase()} `,
        next: '/market/evt_1?show=2',
        locale: 'es',
        ip: '203.0.113.7',
      },
      getDb(),
    );
    expect(result).toEqual({ ok: true, email: email.toLowerCase(), minutes: 15 });
    const [id] = sentJobs();
    await send(id);
    const [got] = inboxOf(email.toLowerCase());
    expect(got.subject).toBe(`Tu enlace para entrar en ${partner.name}`);
    const url = new URL(/Entrar: (\S+)/.exec(got.text)![1]);
    expect(`${url.origin}${url.pathname}`).toBe('http://encore.test/auth/redeem');
    expect(url.searchParams.get('next')).toBe('/market/evt_1?show=2');
    const token = url.searchParams.get('token')!;
    expect(await redeemOneTimeToken(token, getDb())).toEqual({ partnerId: partner.id, email: email.toLowerCase() });
    expect(await redeemOneTimeToken(token, getDb())).toBeNull();
  });

  it('refuses a bad e-mail and a disabled partner, and limits links per e-mail', async () => {
    const { partner } = await makePartner('Limits');
    const base = { partnerId: partner.id, locale: 'en' as const, ip: null };
    expect(await requestSignInLink({ ...base, email: 'not-an-email' }, getDb())).toEqual({
      ok: false,
      error: 'invalidEmail',
    });
    expect(await requestSignInLink({ ...base, partnerId: 'ptr_unknown', email: unique('x') }, getDb())).toEqual({
      ok: false,
      error: 'unavailable',
    });
    const email = unique('many');
    for (let i = 0; i < 5; i++) expect((await requestSignInLink({ ...base, email }, getDb())).ok).toBe(true);
    expect(await requestSignInLink({ ...base, email }, getDb())).toMatchObject({ ok: false, error: 'tooMany' });
    expect((await listMails({ to: email }, getDb())).total).toBe(5);

    await setPartnerDisabled({ partnerId: partner.id, disabled: true }, getDb());
    const other = unique('disabled');
    expect(await requestSignInLink({ ...base, email: other }, getDb())).toEqual({ ok: false, error: 'unavailable' });
    expect((await listMails({ to: other }, getDb())).total).toBe(0);
  });
});

/* ---------- the marketplace's mails ---------- */

describe('marketplace mails', () => {
  const SELLER = 'mail-seller@example.com';

  /** A partner with one show in a year (Buenos Aires time) and tickets T1, T2 owned by SELLER. */
  async function market() {
    const date = new Date(Date.now() + 365 * 24 * 3600_000);
    date.setUTCHours(23, 0, 0, 0); // 20:00 in Buenos Aires
    const { partner, key, ref } = await sellerMarket({
      seller: SELLER,
      name: 'Mail Market',
      show: { date: date.toISOString(), location: { timeZone: 'America/Argentina/Buenos_Aires' } },
    });
    return { partner, key, ref };
  }

  const mailsOf = async (partnerId: string) =>
    (await listMails({ partnerId, pageSize: 100 }, getDb())).items.map((m) => ({
      kind: m.kind,
      to: m.toAddress,
      id: m.id,
    }));

  async function buy(key: string, listingId: string, buyer: string) {
    const res = await buyIntentionPost(
      apiRequest('/v1/marketplace/buyingflow/buyIntention', { key, body: { items: [listingId], user: buyer } }),
    );
    const body = await res.json();
    expect(res.status).toBe(200);
    return { intentionId: body.data.id as string, paid: await payOnSandbox(body.data.paymentUrl) };
  }

  it('listing a ticket mails the seller its price, payout and listing link, in the seller’s language', async () => {
    const m = await market();
    const listing = await createListing(
      {
        partnerId: m.partner.id,
        sellerEmail: SELLER,
        ticketIds: ['T1'],
        price: 50,
        locale: 'es',
      },
      getDb(),
    );
    const [mail] = await mailsOf(m.partner.id);
    expect(mail).toMatchObject({ kind: 'listingCreated', to: SELLER });
    await send(mail.id);
    const got = inboxOf(SELLER).at(-1)!;
    expect(got.subject).toBe(`Tus entradas para ${m.ref} están a la venta`);
    expect(got.text).toMatch(/por 50,00\s€ cada una/); // Intl puts a no-break space before €
    expect(got.text).toContain('20:00'); // the venue's time, not UTC
    expect(got.text).toContain(`http://encore.test/listing/${listing.id}`);
  });

  it('a completed purchase mails the seller the sale and the buyer a confirmation whose link opens the ticket', async () => {
    const m = await market();
    const buyer = unique('buyer');
    const listing = await createListing(
      { partnerId: m.partner.id, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    await buy(m.key, listing.id, buyer);
    const all = await mailsOf(m.partner.id);
    expect(all.map((x) => `${x.kind} ${x.to}`).sort()).toEqual(
      [`listingCreated ${SELLER}`, `purchaseConfirmation ${buyer}`, `ticketSold ${SELLER}`].sort(),
    );
    const confirmation = all.find((x) => x.kind === 'purchaseConfirmation')!;
    await send(confirmation.id);
    const [got] = inboxOf(buyer);
    expect(got.subject).toBe(`Your tickets for ${m.ref}`);
    expect(got.text).toContain('You paid €40.00');
    const link = /Open ticket 1: (\S+)/.exec(got.text)![1];
    expect(link).toMatch(/^http:\/\/encore\.test\/t\/[0-9a-f]{64}$/);
    expect(await secureViewByToken(link.split('/t/')[1], getDb())).toMatchObject({ event: m.ref, status: 'VALID' });

    const sold = all.find((x) => x.kind === 'ticketSold')!;
    await send(sold.id);
    expect(inboxOf(SELLER).at(-1)!.text).toContain('Your payout is €40.00.');
  });

  it('a cancelled show mails the seller of an open listing, the buyer of a sold one their refund and its seller the cancelled payout', async () => {
    const m = await market();
    const buyer = unique('refunded');
    await createListing({ partnerId: m.partner.id, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 }, getDb()); // stays open
    const sold = await createListing(
      { partnerId: m.partner.id, sellerEmail: SELLER, ticketIds: ['T2'], price: 30 },
      getDb(),
    );
    await buy(m.key, sold.id, buyer);
    const before = (await mailsOf(m.partner.id)).length;
    const res = await cancelPost(
      apiRequest(`/v1/events/${m.ref}/cancellation`, { key: m.key, method: 'POST' }),
      routeParams({ externalReferenceId: m.ref }),
    );
    expect(res.status).toBe(200);
    const added = (await mailsOf(m.partner.id)).slice(0, -before);
    expect(added.map((x) => `${x.kind} ${x.to}`).sort()).toEqual(
      [`listingCancelled ${SELLER}`, `purchaseRefunded ${buyer}`, `payoutCancelled ${SELLER}`].sort(),
    );
    await send(added.find((x) => x.kind === 'purchaseRefunded')!.id);
    const got = inboxOf(buyer).at(-1)!;
    expect(got.text).toContain('The show was cancelled by the organiser.');
    expect(got.text).toContain('We refunded €30.00'); // what the buyer paid (no fees set)
    // The seller had been told of a payout: now that it will not be paid, how much and why.
    await send(added.find((x) => x.kind === 'payoutCancelled')!.id);
    const seller = inboxOf(SELLER).at(-1)!;
    expect(seller.subject).toMatch(/^Your payout for .+ is cancelled$/);
    expect(seller.text).toContain('so the buyer of your tickets got their money back');
    expect(seller.text).toContain('The payout of €30.00 we had scheduled for you will not be paid.');
  });

  it('a staff refund mails the buyer; a deleted ticket ends its listing with a mail the sweep sends', async () => {
    const m = await market();
    const buyer = unique('staff');
    const sold = await createListing(
      { partnerId: m.partner.id, sellerEmail: SELLER, ticketIds: ['T1'], price: 40 },
      getDb(),
    );
    const { intentionId } = await buy(m.key, sold.id, buyer);
    await refundPurchase(
      {
        partnerId: m.partner.id,
        intentionId,
        reason: 'Duplicate order',
        staffEmail: 'staff@encore.test',
      },
      getDb(),
    );
    const refunded = (await mailsOf(m.partner.id)).find((x) => x.kind === 'purchaseRefunded')!;
    expect(refunded.to).toBe(buyer);
    await send(refunded.id);
    expect(inboxOf(buyer).at(-1)!.text).toContain('Our support team refunded the purchase.');

    await createListing({ partnerId: m.partner.id, sellerEmail: SELLER, ticketIds: ['T2'], price: 40 }, getDb());
    expect((await deleteTicket(m.key, 'T2')).status).toBe(200);
    const [ended] = await mailsOf(m.partner.id);
    expect(ended).toMatchObject({ kind: 'listingCancelled', to: SELLER });
    expect(sentJobs()).not.toContain(ended.id); // written in the ticket's transaction, sent by the sweep
    await send(ended.id);
    expect(inboxOf(SELLER).at(-1)!.text).toContain('The ticket is no longer valid');
  });
});
