import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/db';
import { type PaymentProviderName, sellerAccounts } from '@/db/schema/payments';
import { newId, sha256Hex } from '@/server/lib/ids';
import { transaction, type Work } from '@/server/lib/transaction';
import { notifyPayoutAccountActivated } from './events';
import { providerFor, providerNameFor } from './providers';
import { payoutAccountInput, type PayoutAccountInput } from './schemas';

export type SellerAccount = typeof sellerAccounts.$inferSelect;

/** What a seller's payouts wait for: no account yet, onboarding not finished ("pending payout info"), or none. */
export type PayoutStatus = 'none' | 'pending' | 'active';

/** A seller's payout account with the current provider, or null. */
export async function getPayoutAccount(
  partnerId: string,
  sellerEmail: string,
  db: DbOrTx,
): Promise<SellerAccount | null> {
  const [row] = await db
    .select()
    .from(sellerAccounts)
    .where(
      and(
        eq(sellerAccounts.partnerId, partnerId),
        eq(sellerAccounts.provider, await providerNameFor(partnerId, db)),
        eq(sellerAccounts.sellerEmail, sellerEmail.trim().toLowerCase()),
      ),
    );
  return row ?? null;
}

export async function payoutStatus(partnerId: string, sellerEmail: string, db: DbOrTx): Promise<PayoutStatus> {
  return (await getPayoutAccount(partnerId, sellerEmail, db))?.status ?? 'none';
}

/**
 * Sets up a seller's payout account (once per seller, partner and provider) and answers the onboarding
 * URL while it is pending ("pending payout info"); an active account answers no URL.
 */
export async function setUpPayoutAccount(
  partnerId: string,
  input: PayoutAccountInput,
  // The handle, not a transaction: each statement commits on its own around the provider's calls.
  db: Db,
): Promise<{ account: SellerAccount; onboardingUrl: string | null }> {
  const data = payoutAccountInput.parse(input);
  const email = data.sellerEmail.trim().toLowerCase();
  const provider = providerFor(await providerNameFor(partnerId, db));
  let account = await getPayoutAccount(partnerId, email, db);
  if (!account) {
    const id = newId('sac');
    // A stable key: two set-ups at once (or a retry) get the same provider account back.
    const idempotencyKey = `encore-seller-${sha256Hex(`${partnerId}\n${email}`).slice(0, 40)}`;
    const { accountRef } = await provider.createSellerAccount({
      sellerAccountId: id,
      partnerId,
      sellerEmail: email,
      idempotencyKey,
    });
    await db
      .insert(sellerAccounts)
      .values({ id, partnerId, sellerEmail: email, provider: provider.name, accountRef })
      .onConflictDoNothing();
    account = (await getPayoutAccount(partnerId, email, db))!;
  }
  if (account.status === 'active') return { account, onboardingUrl: null };
  const onboardingUrl = await provider.onboardingUrl({
    sellerAccountId: account.id,
    accountRef: account.accountRef,
    returnUrl: data.returnUrl,
    refreshUrl: data.refreshUrl ?? data.returnUrl,
  });
  [account] = await db
    .update(sellerAccounts)
    .set({ returnUrl: data.returnUrl, updatedAt: sql`now()` })
    .where(eq(sellerAccounts.id, account.id))
    .returning();
  return { account, onboardingUrl };
}

/** The sandbox onboarding page's view of an account, by its id alone (the link the seller was given). */
export async function sellerAccountForOnboarding(id: string, db: DbOrTx): Promise<SellerAccount | null> {
  const [row] = await db.select().from(sellerAccounts).where(eq(sellerAccounts.id, id));
  return row ?? null;
}

/**
 * Records what the provider says about an account (onboarding finished, or payouts disabled again).
 * Becoming active runs the activation listeners in the same transaction. Answers the account, or null
 * when no account has that reference.
 */
export async function setSellerAccountActive(
  provider: PaymentProviderName,
  accountRef: string,
  active: boolean,
  within: Work | Db,
): Promise<SellerAccount | null> {
  return transaction(async (work) => {
    const [changed] = await work.tx
      .update(sellerAccounts)
      .set({
        status: active ? 'active' : 'pending',
        activatedAt: active ? sql`now()` : null,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(sellerAccounts.provider, provider),
          eq(sellerAccounts.accountRef, accountRef),
          ne(sellerAccounts.status, active ? 'active' : 'pending'),
        ),
      )
      .returning();
    if (changed?.status === 'active') {
      await notifyPayoutAccountActivated(work, changed);
    }
    if (changed) return changed;
    const [row] = await work.tx
      .select()
      .from(sellerAccounts)
      .where(and(eq(sellerAccounts.provider, provider), eq(sellerAccounts.accountRef, accountRef)));
    return row ?? null;
  }, within);
}
