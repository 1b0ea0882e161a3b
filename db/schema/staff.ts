import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
