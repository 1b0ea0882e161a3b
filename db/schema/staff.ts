import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** People who sign in to the dashboard. Passwords are bcrypt hashes. */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: text().primaryKey(), // stf_…
    email: text().notNull(), // stored lower-cased
    name: text().notNull().default(''),
    passwordHash: text().notNull(),
    role: text({ enum: ['admin', 'staff'] })
      .notNull()
      .default('staff'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp({ withTimezone: true }),
    /** Carried in the session token; bumping it ends every session of this member at once. */
    sessionVersion: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('staff_users_email_idx').on(t.email)],
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
    role: text({ enum: ['admin', 'staff'] })
      .notNull()
      .default('staff'),
    tokenHash: text().notNull(),
    /** The inviting member; kept as plain text so removing them keeps the record. */
    invitedBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    acceptedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('staff_invitations_token_idx').on(t.tokenHash), index('staff_invitations_email_idx').on(t.email)],
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
