import type { NavItem } from '@/components/dashboard/nav';
import { partnerMay } from '@/server/lib/staff-roles';
import type { PartnerUserSession } from '@/server/modules/staff';
import {
  bannersPath,
  embedPath,
  eventsPath,
  marketPath,
  partnerPath,
  rulesPath,
  statementPath,
  teamPath,
  webhookLogPath,
} from './partners/_shared/paths';

/** A partner user's sections: their partner's pages alone; Team for the owner, who manages its users. */
export function partnerNavItems(user: PartnerUserSession): NavItem[] {
  const id = user.partnerId;
  return [
    { href: partnerPath(id), label: 'Overview', exact: true },
    { href: eventsPath(id), label: 'Events' },
    { href: marketPath(id), label: 'Market' },
    { href: statementPath(id), label: 'Fees and payouts' },
    { href: webhookLogPath(id), label: 'Webhook log' },
    { href: embedPath(id), label: 'Embed' },
    { href: rulesPath(id), label: 'Resale rules' },
    { href: bannersPath(id), label: 'Banners' },
    ...(partnerMay(user.role, 'users') ? [{ href: teamPath(id), label: 'Team' }] : []),
  ];
}
