import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { DashboardNav } from '@/components/dashboard/nav';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import { SearchBox } from '@/components/dashboard/search-box';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { MemberRoleProvider } from '@/components/dashboard/staff-role';
import { TRPCReactProvider } from '@/components/trpc/provider';
import { getDb } from '@/db';
import { getMemberSession } from '@/server/auth/session';
import { getPartner } from '@/server/modules/partners';
import { isPartnerUser } from '@/server/modules/staff';
import { PartnerShell } from './partner-shell';

export const metadata: Metadata = { title: { default: 'Dashboard', template: '%s · Encore dashboard' } };

/**
 * The dashboard's frame: Encore's staff see every section; a partner's user sees their partner's pages
 * alone (app/dashboard/partner-shell.tsx), and every other page is not found for them.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const member = await getMemberSession();
  // A layout cannot know the URL, so the redirect to sign-in is left to each page's requireStaff(path),
  // which keeps the way back. The data stays closed regardless: every tRPC procedure needs a session.
  if (!member) return children;
  if (isPartnerUser(member)) {
    const partner = await getPartner(member.partnerId, getDb());
    return (
      <TRPCReactProvider>
        <MemberRoleProvider member={{ role: member.role, partnerId: member.partnerId }}>
          <PartnerShell user={member} partnerName={partner.name}>
            {children}
          </PartnerShell>
        </MemberRoleProvider>
      </TRPCReactProvider>
    );
  }
  const staff = member;
  return (
    <TRPCReactProvider>
      <MemberRoleProvider member={{ role: staff.role }}>
        <div className="shell">
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <aside className="sidebar">
            <div className="sidebar-inner">
              <Link href="/dashboard" className="brand">
                Encore <span className="brand-tag">Staff</span>
              </Link>
              <SearchBox />
              <DashboardNav />
              <div className="sidebar-footer">
                <span className="sidebar-user" title={staff.email}>
                  {staff.email}
                </span>
                <span className="sidebar-role" data-testid="signed-in-role">
                  {ROLE_LABELS[staff.role].name}
                </span>
                <SignOutButton />
              </div>
            </div>
          </aside>
          <main id="main" className="main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </MemberRoleProvider>
    </TRPCReactProvider>
  );
}
