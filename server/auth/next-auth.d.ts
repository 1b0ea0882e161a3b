import type {} from 'next-auth';
import type {} from 'next-auth/jwt';

// What the token carries of the member (Encore's staff or a partner's user): who they are and which sign-in.
// Their role and partner are read from their row on every request (server/auth/session.ts), never from here.
declare module 'next-auth' {
  interface Session {
    staff: { id: string; email: string; name: string; sessionVersion?: number; sessionId?: string };
  }
  interface User {
    /** Session version at sign-in (see staff_users.session_version). */
    sv?: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    sv?: number;
    /** The staff_sessions row of this sign-in. */
    sid?: string;
  }
}
