import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { verifyStaffCredentials } from '@/server/modules/staff/service';

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
      },
      async authorize(credentials) {
        const staff = await verifyStaffCredentials({ email: credentials?.email, password: credentials?.password });
        return staff ? { id: staff.id, email: staff.email, name: staff.name, role: staff.role } : null;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      // `user` is only present on the sign-in call; later calls keep what the token already carries.
      if (user) {
        token.sub = user.id;
        token.email = user.email;
        token.name = user.name;
        token.role = user.role;
      }
      return token;
    },
    session({ session, token }) {
      session.staff = {
        id: token.sub ?? '',
        email: token.email ?? '',
        name: token.name ?? '',
        role: token.role ?? 'staff',
      };
      return session;
    },
  },
};
