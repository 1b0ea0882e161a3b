import { listingCancelled } from './listing-cancelled';
import { listingCreated } from './listing-created';
import { payoutCancelled } from './payout-cancelled';
import { purchaseConfirmation } from './purchase-confirmation';
import { purchaseRefunded } from './purchase-refunded';
import { signInLink } from './sign-in-link';
import { ticketSold } from './ticket-sold';
import { ticketsDelivered } from './tickets-delivered';
import type { MailKind, MailTemplate } from './types';
import { wishlistAvailable } from './wishlist-available';

export { plainTextOptions } from './plain-text';
export { type MailData, type MailKind } from './types';

/** Every kind of mail, each a component of its own (./<kind>.tsx). */
export const templates: { [K in MailKind]: MailTemplate<K> } = {
  signInLink,
  listingCreated,
  ticketSold,
  purchaseConfirmation,
  ticketsDelivered,
  listingCancelled,
  purchaseRefunded,
  payoutCancelled,
  wishlistAvailable,
};
