import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { partners } from './partners';

/**
 * The roles (server/lib/staff-roles.ts says what each may do; it holds the same lists, and a test checks the
 * two agree): Encore's staff (no partner) are admin, finance, support or viewer; a partner's own users are
 * owner, developer or viewer. Least privilege by default: a member or invitation without a role is a viewer.
 */
const ROLES = ['admin', 'finance', 'support', 'viewer', 'owner', 'developer'] as const;
const roleCheck = (name: string, role: unknown, partnerId: unknown) =>
  check(
    name,
    sql`(${partnerId} is null and ${role} in ('admin', 'finance', 'support', 'viewer')) or (${partnerId} is not null and ${role} in ('owner', 'developer', 'viewer'))`,
  );

/**
 * People who sign in to the dashboard: Encore's staff (`partner_id` null) and partners' own users (their
 * partner's live row; they see it and its test twin alone). Passwords are bcrypt hashes; one account per
 * e-mail across both.
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: text().primaryKey(), // stf_…
    email: text().notNull(), // stored lower-cased
    name: text().notNull().default(''),
    passwordHash: text().notNull(),
    role: text({ enum: ROLES }).notNull().default('viewer'),
    /** A partner user's partner; null for Encore's staff. */
    partnerId: text().references(() => partners.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp({ withTimezone: true }),
    /** Carried in the session token; bumping it ends every session of this member at once. */
    sessionVersion: integer().notNull().default(0),
    /**
     * Two-factor sign-in (TOTP, RFC 6238): the base32 secret the member's authenticator app holds. It must
     * stay readable to check codes, so it is kept as is, like a webhook's signing secret: shown once while
     * enrolling, never answered again, never logged, redacted in the audit log (its name says secret).
     * Set and not yet enabled while an enrolment waits for its first code.
     */
    totpSecret: text(),
    /** When two-factor sign-in was turned on (a code confirmed the secret); null while it is off. */
    totpEnabledAt: timestamp({ withTimezone: true }),
    /** The 30-second step of the last code accepted: a code of this step or an earlier one is refused. */
    totpLastStep: bigint({ mode: 'number' }),
  },
  (t) => [
    uniqueIndex('staff_users_email_idx').on(t.email),
    index('staff_users_partner_idx').on(t.partnerId),
    roleCheck('staff_users_role_check', t.role, t.partnerId),
  ],
);

/**
 * Invitations to become staff. Only a SHA-256 hash of the one-time token is stored; the link with the
 * token is shown once to the inviting member. Accepting sets `acceptedAt` and creates the staff user.
 */
export const staffInvitations = pgTable(
  'staff_invitations',
  {
    id: text().primaryKey(), // inv_…
    email: text().notNull(), // stored lower-cased
    role: text({ enum: ROLES }).notNull().default('viewer'),
    /** The partner whose user the invitee becomes; null for an invitation to Encore's staff. */
    partnerId: text().references(() => partners.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    /** The inviting member; kept as plain text so removing them keeps the record. */
    invitedBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_invitations_token_idx').on(t.tokenHash),
    index('staff_invitations_email_idx').on(t.email),
    roleCheck('staff_invitations_role_check', t.role, t.partnerId),
  ],
);

/**
 * One row per staff sign-in: the session token carries its id, and every dashboard request checks the
 * row is still open. Signing out ends the row, so a copy of the cookie stops working at once instead of
 * living out the token's 12 hours; "sign out everywhere", a password change and removal end them all.
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text().primaryKey(), // sss_…
    staffId: text()
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('staff_sessions_staff_idx').on(t.staffId)],
);
