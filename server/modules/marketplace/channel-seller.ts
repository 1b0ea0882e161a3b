/**
 * The seller of a channel's market listings and the identity of its payout account: an address under the
 * reserved `.invalid` top-level domain (RFC 2606), so it passes as an e-mail where the payments module
 * needs one, no fan can ever be it, and nothing is ever delivered to it (mails to sellers skip it).
 */
const DOMAIN = '@channels.encore.invalid';
export const channelSeller = (channelId: string) => `${channelId.toLowerCase()}${DOMAIN}`;
export const isChannelSeller = (sellerEmail: string) => sellerEmail.endsWith(DOMAIN);
