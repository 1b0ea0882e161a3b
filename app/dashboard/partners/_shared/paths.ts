/**
 * Paths of a partner's dashboard pages, shared by their server pages and client components (a plain
 * module: server components cannot call functions exported by a client module; query strings are
 * built with components/ui/url). Every URL segment is one of our own ids (ptr_…, evt_…, shw_…, tbt_…,
 * msg_…), encoded anyway so a hand-edited URL cannot break out of it.
 */
const e = encodeURIComponent;

export const partnerPath = (partnerId: string) => `/dashboard/partners/${e(partnerId)}`;
export const eventsPath = (partnerId: string) => `${partnerPath(partnerId)}/events`;
export const eventPath = (partnerId: string, eventId: string) => `${eventsPath(partnerId)}/${e(eventId)}`;
export const showTicketsPath = (partnerId: string, eventId: string, showId: string) =>
  `${eventPath(partnerId, eventId)}/shows/${e(showId)}`;
export const batchesPath = (partnerId: string) => `${partnerPath(partnerId)}/batches`;
export const batchPath = (partnerId: string, batchId: string) => `${batchesPath(partnerId)}/${e(batchId)}`;
export const ticketsPath = (partnerId: string) => `${partnerPath(partnerId)}/tickets`;
export const ticketPath = (partnerId: string, ticketId: string) => `${ticketsPath(partnerId)}/${e(ticketId)}`;
export const webhookLogPath = (partnerId: string) => `${partnerPath(partnerId)}/webhooks`;
export const webhookMessagePath = (partnerId: string, messageId: string) =>
  `${webhookLogPath(partnerId)}/${e(messageId)}`;
export const marketPath = (partnerId: string) => `${partnerPath(partnerId)}/market`;
export const bannersPath = (partnerId: string) => `${partnerPath(partnerId)}/banners`;
export const rulesPath = (partnerId: string) => `${partnerPath(partnerId)}/rules`;
export const channelsPath = (partnerId: string) => `${partnerPath(partnerId)}/channels`;
export const channelPath = (partnerId: string, channelId: string) => `${channelsPath(partnerId)}/${e(channelId)}`;
export const embedPath = (partnerId: string) => `${partnerPath(partnerId)}/embed`;
export const statementPath = (partnerId: string) => `${partnerPath(partnerId)}/statement`;
export const teamPath = (partnerId: string) => `${partnerPath(partnerId)}/team`;
