/** The seller of a channel's market listings: never an e-mail, so no fan can be it and no mail goes to it. */
export const channelSeller = (channelId: string) => `channel:${channelId}`;
export const isChannelSeller = (sellerEmail: string) => sellerEmail.startsWith('channel:');
