import type { StaffSession } from '@/server/modules/staff';

// The staff member travels in the JWT and in the session next-auth hands back.
declare module 'next-auth' {
  interface Session {
    staff: StaffSession;
  }
  interface User {
    role: StaffSession['role'];
    /** Session version at sign-in (see staff_users.session_version). */
    sv?: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    role?: StaffSession['role'];
    sv?: number;
    /** The staff_sessions row of this sign-in. */
    sid?: string;
  }
}
