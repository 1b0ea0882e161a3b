import type { PartnerRole, StaffRole } from '@/server/lib/staff-roles';

/** Each staff role as the dashboard names it, and what it may do in a few words (server/lib/staff-roles.ts). */
export const ROLE_LABELS: Record<StaffRole, { name: string; what: string }> = {
  admin: { name: 'Admin', what: 'everything, and manages staff, partners and their settings' },
  finance: { name: 'Finance', what: 'reads, refunds, sets up payouts and exports CSV' },
  support: { name: 'Support', what: "reads, resends mails and ends fans' sessions" },
  viewer: { name: 'Viewer', what: 'reads every page, changes nothing' },
};

/** Each partner role as the dashboard names it, and what it may do in a few words. */
export const PARTNER_ROLE_LABELS: Record<PartnerRole, { name: string; what: string }> = {
  owner: { name: 'Owner', what: "everything, and manages the partner's users" },
  developer: { name: 'Developer', what: 'reads, and runs the integration: keys, webhooks, origins, test data' },
  viewer: { name: 'Viewer', what: 'reads every page, changes nothing' },
};
