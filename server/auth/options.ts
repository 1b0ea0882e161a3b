import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { getDb } from '@/db';
import { clientAddressOf } from '@/server/http/client-address';
import {
  endStaffSession,
  openStaffSession,
  SIGN_IN_LIMITED,
  SignInLimitedError,
  TwoFactorSignInError,
  verifyStaffCredentials,
} from '@/server/modules/staff';

/** Staff sessions last a working day; the token is re-issued at most hourly while in use. */
const SESSION_MAX_AGE_S = 12 * 60 * 60;

/**
 * next-auth (v4) configuration for staff sign-in. The secret is not set here on purpose: next-auth
 * reads NEXTAUTH_SECRET at call time, and server/boot.ts only provides it once the database is up.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S, updateAge: 60 * 60 },
  jwt: { maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: '/signin', error: '/signin' },
  providers: [
    CredentialsProvider({
      id: 'credentials',
      name: 'E-mail and password',
      credentials: {
        email: { label: 'E-mail', type: 'email' },
        password: { label: 'Password', type: 'password' },
        code: { label: 'Authenticator code', type: 'text' },
      },
      async authorize(credentials, req) {
        try {
          const staff = await verifyStaffCredentials(
            { email: credentials?.email, password: credentials?.password, code: credentials?.code },
            clientAddressOf(req?.headers),
            getDb(),
          );
          return staff ? { id: staff.id, email: staff.email, name: staff.name, sv: staff.sessionVersion ?? 0 } : null;
        } catch (err) {
          // next-auth hands a thrown error's message to the sign-in page as `error`; the form explains it.
          if (err instanceof SignInLimitedError) throw new Error(SIGN_IN_LIMITED);
          // The code is missing (the form asks for it) or wrong / used already.
          if (err instanceof TwoFactorSignInError) throw new Error(err.reason);
          throw err;
        }
      },
    }),
  ],
  events: {
    // Signing out ends this session on the server: the cookie, if kept or copied, opens nothing more.
    async signOut(message) {
      const sid = 'token' in message ? message.token?.sid : undefined;
      if (sid) await endStaffSession(sid, getDb());
    },
  },
  callbacks: {
    async jwt({ token, user }) {
      // `user` is only present on the sign-in call; later calls keep what the token already carries.
      if (user) {
        token.sid = await openStaffSession(user.id, getDb());
        token.sub = user.id;
        token.email = user.email;
        token.name = user.name;
        token.sv = user.sv;
      }
      return token;
    },
    session({ session, token }) {
      session.staff = {
        id: token.sub ?? '',
        email: token.email ?? '',
        name: token.name ?? '',
        sessionVersion: token.sv ?? 0,
        sessionId: token.sid,
      };
      return session;
    },
  },
};
