import type { DbOrTx } from '@/db';
import { channelNames } from '@/server/modules/partners';

/**
 * The seller of a channel's market listings and the identity of its payout account: an address under the
 * reserved `.invalid` top-level domain (RFC 2606), so it passes as an e-mail where the payments module
 * needs one, no fan can ever be it, and nothing is ever delivered to it (mails to sellers skip it).
 */
const DOMAIN = '@channels.encore.invalid';
export const channelSeller = (channelId: string) => `${channelId.toLowerCase()}${DOMAIN}`;
export const isChannelSeller = (sellerEmail: string) => sellerEmail.endsWith(DOMAIN);

/**
 * The channel's name for each channel seller among `emails` (a fan's address has none), read from the
 * partners module in one query: staff see "Channel: <name>" where the marker address would be.
 */
export async function channelNamesOfSellers(
  partnerId: string,
  emails: readonly string[],
  db: DbOrTx,
): Promise<Map<string, string>> {
  const markers = [...new Set(emails.filter(isChannelSeller))];
  if (!markers.length) return new Map();
  const names = await channelNames(
    partnerId,
    markers.map((email) => email.slice(0, -DOMAIN.length)),
    db,
  );
  const out = new Map<string, string>();
  for (const email of markers) {
    const name = names.get(email.slice(0, -DOMAIN.length));
    if (name) out.set(email, name);
  }
  return out;
}
