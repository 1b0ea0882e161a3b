'use server';

import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { carriedPageLocale } from '@/components/market/page-locale';
import { safeReturnTo, withReturnTo } from '@/components/market/return-to';
import { fanOf } from '@/components/market/session';
import { type Db, getDb } from '@/db';
import { AppError, type FanErrorReason } from '@/server/lib/errors';
import { getPartner } from '@/server/modules/partners';
import {
  type ListForSellerResult,
  listForSeller,
  payoutSetupUrl,
  relistAsSeller,
  repriceAsSeller,
  sellerListing,
  secureViewWithoutCode,
  sellPage,
  transferAsSeller,
  transferTickets,
  transferEmail,
  unlistAsSeller,
} from '@/server/modules/marketplace';
import { reasonText, rangeText } from './reasons';
import { assertForm } from '@/server/http/form-argument';

/** What a form shows after a refused submit: the error next to the field, with the allowed range. */
export interface FormState {
  error?: string;
  range?: string | null;
  /**
   * What the fan typed and chose, given back with a refusal: React resets a form after its action, to
   * these (the fields' defaults), so nothing typed is lost to a refusal, with or without JavaScript.
   */
  typed?: { price?: string; to?: string; tickets?: string[] };
}

/** The state of a refused submission keeps what was typed; an accepted one (or a redirect) is as it is. */
function keepTyped(data: FormData, state: FormState): FormState {
  if (!state.error) return state;
  const text = (name: string) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : undefined;
  };
  const tickets = data.getAll('tickets').filter((v): v is string => typeof v === 'string');
  return { ...state, typed: { price: text('price'), to: text('to'), tickets } };
}

function field(data: FormData, name: string): string {
  const v = data.get(name);
  return typeof v === 'string' ? v.trim() : '';
}

/** "12,50" typed in a Spanish locale is 12.50. */
function priceOf(data: FormData): string {
  return field(data, 'price').replace(/\s/g, '').replace(',', '.');
}

async function refused(result: Exclude<ListForSellerResult, { ok: true }>, partnerName: string): Promise<FormState> {
  const t = await getTranslations('sell');
  const range = result.range ? await rangeText(result.range) : null;
  if (result.message === 'PRICE_INVALID') return { error: t('priceInvalid'), range };
  if (result.fanReason) return { error: await fanRefusal(result.fanReason, partnerName), range };
  if (result.message) return { error: result.message, range };
  const texts = await Promise.all(result.problems.map((p) => reasonText(p, partnerName)));
  return { error: texts.join(' '), range };
}

/** The selling flow's confirm: lists the chosen tickets (a PACK for several of one order). */
export async function listTicketsAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await listTickets(prev, data));
}

async function listTickets(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('sell');
  const ticket = await sellPage(field(data, 'ticketPk'), getDb());
  if (!ticket) return { error: t('gone') };
  const fan = await fanOf(ticket.partnerId);
  if (!fan) return { error: t('signInFirst') };
  const chosen = data.getAll('tickets').filter((v): v is string => typeof v === 'string');
  if (!chosen.length) return { error: t('chooseTickets') };
  const result = await listForSeller(
    ticket.partnerId,
    fan.email,
    chosen,
    priceOf(data),
    getDb(),
    await carriedPageLocale(),
  );
  if (!result.ok) return refused(result, field(data, 'partnerName'));
  redirect(
    await withFormReturnTo(
      `/sell/${ticket.pk}/done?listing=${encodeURIComponent(result.listingId)}`,
      data,
      ticket.partnerId,
    ),
  );
}

/** Sends the seller to the payout onboarding (sandbox form or Stripe), back to `returnPath` after. */
export async function setUpPayoutsAction(data: FormData): Promise<void> {
  assertForm(data);
  const partnerId = field(data, 'partnerId');
  const returnPath = field(data, 'returnPath');
  const fan = await fanOf(partnerId);
  const back = returnPath.startsWith('/') && !returnPath.startsWith('//') ? returnPath : '/me';
  if (!fan) redirect(back);
  const url = await payoutSetupUrl(partnerId, fan.email, back, getDb());
  redirect(url ?? back);
}

async function sellerOf(listingId: string) {
  const found = await sellerListing(listingId, null, getDb());
  if (!found) return null;
  const fan = await fanOf(found.partnerId);
  return fan ? { partnerId: found.partnerId, email: fan.email } : null;
}

/**
 * `path` (a step of managing a listing) with the form's `returnTo` riding along, checked again against the
 * partner's return origins: a form's hidden field is the fan's to change.
 */
async function withFormReturnTo(path: string, data: FormData, partnerId: string): Promise<string> {
  const asked = field(data, 'returnTo');
  if (!asked) return path;
  return withReturnTo(path, safeReturnTo(asked, await getPartner(partnerId, getDb())));
}

/**
 * A refusal from the marketplace as the fan reads it: in their language when the refusal says why
 * (`fanReason`), else its message. Anything else is not the fan's to read: it goes to the error page.
 */
async function domainError(err: unknown, partnerId: string): Promise<FormState> {
  if (!(err instanceof AppError) || err.code === 'INTERNAL') throw err;
  if (!err.fanReason) return { error: err.message };
  const partner = await getPartner(partnerId, getDb()).then(
    (p) => p.name,
    () => partnerId,
  );
  return { error: await fanRefusal(err.fanReason, partner) };
}

/** A refusal's reason in the fan's language. */
async function fanRefusal(reason: FanErrorReason, partnerName: string): Promise<string> {
  const t = await getTranslations('fanErrors');
  return t(reason, { partner: partnerName });
}

export async function repriceAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await reprice(prev, data));
}

async function reprice(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const listingId = field(data, 'listingId');
  const seller = await sellerOf(listingId);
  if (!seller) return { error: t('notYours') };
  const result = await repriceAsSeller(seller.partnerId, listingId, seller.email, priceOf(data), getDb());
  if (!result.ok) return refused(result, field(data, 'partnerName'));
  redirect(await withFormReturnTo(`/listing/${listingId}?done=repriced`, data, seller.partnerId));
}

export async function unlistAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await unlist(prev, data));
}

async function unlist(_prev: FormState, data: FormData): Promise<FormState> {
  return asSeller(data, unlistAsSeller, 'unlisted');
}

export async function relistAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await relist(prev, data));
}

async function relist(_prev: FormState, data: FormData): Promise<FormState> {
  return asSeller(data, relistAsSeller, 'relisted');
}

/**
 * A change the signed-in fan makes to a listing they sell: refused unless they sell it, a refusal shown
 * on the form, then back to the listing saying what was `done`.
 */
async function asSeller(
  data: FormData,
  change: (partnerId: string, listingId: string, sellerEmail: string, db: Db) => Promise<unknown>,
  done: string,
): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const listingId = field(data, 'listingId');
  const seller = await sellerOf(listingId);
  if (!seller) return { error: t('notYours') };
  try {
    await change(seller.partnerId, listingId, seller.email, getDb());
  } catch (err) {
    return domainError(err, seller.partnerId);
  }
  redirect(await withFormReturnTo(`/listing/${listingId}?done=${done}`, data, seller.partnerId));
}

/** Step one of a transfer: check the e-mail, then show the confirmation page. */
export async function transferStartAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await transferStart(prev, data));
}

async function transferStart(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const listingId = field(data, 'listingId');
  const to = transferEmail.safeParse(field(data, 'to'));
  if (!to.success) return { error: t('transferEmailInvalid') };
  const found = await sellerListing(listingId, null, getDb());
  const next = `/listing/${listingId}/transfer?to=${encodeURIComponent(to.data.toLowerCase())}`;
  redirect(found ? await withFormReturnTo(next, data, found.partnerId) : next);
}

export async function transferAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await transfer(prev, data));
}

async function transfer(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const listingId = field(data, 'listingId');
  const to = transferEmail.safeParse(field(data, 'to'));
  if (!to.success) return { error: t('transferEmailInvalid') };
  const seller = await sellerOf(listingId);
  if (!seller) return { error: t('notYours') };
  try {
    await transferAsSeller(seller.partnerId, listingId, seller.email, to.data, getDb());
  } catch (err) {
    return domainError(err, seller.partnerId);
  }
  redirect(await withFormReturnTo(`/listing/${listingId}?done=transferred`, data, seller.partnerId));
}

/** Step one of a transfer from the secure view: check the e-mail, then show the confirmation. */
export async function ticketTransferStartAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await ticketTransferStart(prev, data));
}

async function ticketTransferStart(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const token = field(data, 'token');
  const to = transferEmail.safeParse(field(data, 'to'));
  if (!to.success) return { error: t('transferEmailInvalid') };
  if (!/^[0-9a-f]{64}$/.test(token)) return { error: t('notYours') };
  redirect(`/t/${token}/transfer?to=${encodeURIComponent(to.data.toLowerCase())}`);
}

/**
 * The confirmed transfer of the secure view's ticket: the signed-in fan must own it (asked live, like
 * every transfer) and the partner's rules allow it. The old link then says "transferred".
 */
export async function ticketTransferAction(prev: FormState, data: FormData): Promise<FormState> {
  return keepTyped(data, await ticketTransfer(prev, data));
}

async function ticketTransfer(_prev: FormState, data: FormData): Promise<FormState> {
  assertForm(data);
  const t = await getTranslations('listing');
  const token = field(data, 'token');
  const to = transferEmail.safeParse(field(data, 'to'));
  if (!to.success) return { error: t('transferEmailInvalid') };
  const view = /^[0-9a-f]{64}$/.test(token) ? await secureViewWithoutCode(token, getDb()) : null;
  if (!view || !view.actions.transfer) return { error: t('notYours') };
  const fan = await fanOf(view.ticket.partnerId);
  if (!fan) return { error: t('notYours') };
  try {
    await transferTickets(
      view.ticket.partnerId,
      {
        ticketIds: [view.ticket.ticketId],
        fromEmail: fan.email,
        toEmail: to.data,
      },
      getDb(),
    );
  } catch (err) {
    return domainError(err, view.ticket.partnerId);
  }
  redirect(`/t/${token}`);
}
