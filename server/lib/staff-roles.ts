/**
 * Who may do what in the dashboard. Every tRPC procedure is built from `staffProcedure(permission)` or
 * `publicProcedure` (server/trpc/init.ts), so each names one permission of this table, and a procedure
 * built otherwise does not compile (no other builder is exported); the dashboard shows a control only to a
 * role that holds its procedure's permission (`useMay`, components/dashboard/staff-role.tsx).
 * server/trpc/permissions.test.ts walks the whole router with every role; docs/security.md's role table is
 * checked against ROLE_TABLE. Plain data and functions: the dashboard's client components import it too.
 *
 * The roles, least privilege first:
 * - `viewer` reads, never writes;
 * - `support` reads, and helps fans: resends mails, ends a fan's sessions;
 * - `finance` reads, and moves money: refunds, payout set-up, exports of figures;
 * - `admin` everything, and is the only role that creates or changes staff, partners, their keys and settings.
 * Every role changes its own password, ends its own sessions and sets up its own two-factor sign-in (`self`).
 */

export const STAFF_ROLES = ['admin', 'finance', 'support', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERMISSIONS = {
  read: {
    roles: ['admin', 'finance', 'support', 'viewer'],
    what: 'read every page of the dashboard',
  },
  self: {
    roles: ['admin', 'finance', 'support', 'viewer'],
    what: 'change their own password, end their own sessions, turn their own two-factor sign-in on or off',
  },
  support: {
    roles: ['admin', 'support'],
    what: "help fans: resend a mail, end a fan's sessions",
  },
  money: {
    roles: ['admin', 'finance'],
    what: 'move money and take figures away: refund a purchase, set up a payout account, export CSV',
  },
  admin: {
    roles: ['admin'],
    what: 'create or change staff, partners, their keys, webhooks, channels, rules, banners, protection and fees',
  },
} as const satisfies Record<string, { roles: readonly StaffRole[]; what: string }>;

export type Permission = keyof typeof PERMISSIONS;

/** Whether a member with this role holds the permission. */
export function may(role: StaffRole, permission: Permission): boolean {
  return (PERMISSIONS[permission].roles as readonly StaffRole[]).includes(role);
}

/** Why a member with this role may not do what `permission` allows (the words a refusal shows), or null. */
export function roleRefusal(role: StaffRole, permission: Permission): string | null {
  return may(role, permission)
    ? null
    : `Your role (${role}) may not do this: it needs a role that may ${PERMISSIONS[permission].what}.`;
}

/**
 * Whether a member with `role` may give `given` to someone (invite with it, or change a member to it): only
 * an admin gives roles, and nobody gives a role above their own (a permission they do not hold).
 */
export function mayGiveRole(role: StaffRole, given: StaffRole): boolean {
  if (!may(role, 'admin')) return false;
  return (Object.keys(PERMISSIONS) as Permission[]).every((p) => may(role, p) || !may(given, p));
}

/** The role table, one row per permission: what it allows and which roles hold it (docs/security.md). */
export const ROLE_TABLE = (Object.keys(PERMISSIONS) as Permission[]).map((permission) => ({
  permission,
  what: PERMISSIONS[permission].what,
  roles: STAFF_ROLES.filter((role) => may(role, permission)),
}));

/*
 * A partner's own people (partner users) sign in to the same dashboard and see their partner alone (its live
 * partner and its test twin). Their roles:
 * - `viewer` reads their partner's pages: keys (never a secret), webhooks and their log, origins, test mode,
 *   the Embed page, events and shows with resale figures, rules, banners and protection, fees and payouts,
 *   and exports the statement and leads as CSV (reading them, as the dashboard's exports route does);
 * - `developer` also runs the integration: creates and revokes keys, rotates the publishable key and the
 *   webhook secret, sets the webhook endpoint, the widget and return origins, sends test messages, replays
 *   deliveries, and wipes test data;
 * - `owner` also manages the partner's users (invites, changes roles, removes; the last owner stays).
 * Every role sets up its own two-factor sign-in (`self`).
 * A procedure open to partner users is built with `partnerProcedure(staffPermission, partnerPermission)`
 * (server/trpc/init.ts); every other refuses them (`FORBIDDEN`).
 */
export const PARTNER_ROLES = ['owner', 'developer', 'viewer'] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];

export const PARTNER_PERMISSIONS = {
  read: { roles: ['owner', 'developer', 'viewer'], what: "read their partner's pages and export its CSV" },
  develop: {
    roles: ['owner', 'developer'],
    what: 'run the integration: keys, webhook endpoint and secret, origins, test data',
  },
  users: { roles: ['owner'], what: "invite, change and remove the partner's users" },
  self: { roles: ['owner', 'developer', 'viewer'], what: 'turn their own two-factor sign-in on or off' },
} as const satisfies Record<string, { roles: readonly PartnerRole[]; what: string }>;

export type PartnerPermission = keyof typeof PARTNER_PERMISSIONS;

/** Whether a partner user with this role holds the permission. */
export function partnerMay(role: PartnerRole, permission: PartnerPermission): boolean {
  return (PARTNER_PERMISSIONS[permission].roles as readonly PartnerRole[]).includes(role);
}

/** The same as roleRefusal for a partner user's role. */
export function partnerRoleRefusal(role: PartnerRole, permission: PartnerPermission): string | null {
  return partnerMay(role, permission)
    ? null
    : `Your role (${role}) may not do this: it needs a role that may ${PARTNER_PERMISSIONS[permission].what}.`;
}

/**
 * Whether the signed-in member may use a procedure declared with `permission` for staff and, when it is open
 * to partner users, `partnerPermission` for them: a partner's user holds nothing without one.
 */
export function memberMay(
  member: { role: StaffRole; partnerId?: null } | { role: PartnerRole; partnerId: string },
  permission: Permission,
  partnerPermission?: PartnerPermission,
): boolean {
  if (typeof member.partnerId !== 'string') return may(member.role as StaffRole, permission);
  return partnerPermission !== undefined && partnerMay(member.role as PartnerRole, partnerPermission);
}

/** The partner role table (docs/security.md), as ROLE_TABLE. */
export const PARTNER_ROLE_TABLE = (Object.keys(PARTNER_PERMISSIONS) as PartnerPermission[]).map((permission) => ({
  permission,
  what: PARTNER_PERMISSIONS[permission].what,
  roles: PARTNER_ROLES.filter((role) => partnerMay(role, permission)),
}));
