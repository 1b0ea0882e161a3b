import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { ButtonLink } from '@/components/ui/button';
import { DashboardNav } from '@/components/dashboard/nav';
import { PARTNER_ROLE_LABELS, ROLE_LABELS } from '@/components/dashboard/role-names';
import { SearchBox } from '@/components/dashboard/search-box';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { MemberRoleProvider } from '@/components/dashboard/staff-role';
import { TRPCReactProvider } from '@/components/trpc/provider';
import { getDb } from '@/db';
import { getMemberSession } from '@/server/auth/session';
import { getPartner } from '@/server/modules/partners';
import { isPartnerUser, type MemberSession } from '@/server/modules/staff';
import { partnerNavItems } from './partner-nav-items';

export const metadata: Metadata = { title: { default: 'Dashboard', template: '%s · Encore dashboard' } };

/**
 * The dashboard's frame: Encore's staff see every section and the search; a partner's user sees their
 * partner's name and its pages alone (app/dashboard/partner-nav-items.ts), and every other page is not found
 * for them.
 */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const member = await getMemberSession();
  // A layout cannot know the URL, so the redirect to sign-in is left to each page's requireStaff(path),
  // which keeps the way back. The data stays closed regardless: every tRPC procedure needs a session.
  if (!member) return children;
  const partnerName = isPartnerUser(member) ? (await getPartner(member.partnerId, getDb())).name : null;
  return (
    <TRPCReactProvider>
      <MemberRoleProvider
        member={isPartnerUser(member) ? { role: member.role, partnerId: member.partnerId } : { role: member.role }}
      >
        <div className="shell">
          <a href="#main" className="skip-link">
            Skip to content
          </a>
          <aside className="sidebar">
            <div className="sidebar-inner">
              {isPartnerUser(member) ? (
                <>
                  <Link href="/dashboard" className="brand brand-stacked" data-testid="partner-brand">
                    <span className="brand-tag">Encore</span>
                    <span>{partnerName}</span>
                  </Link>
                  <DashboardNav items={partnerNavItems(member)} />
                </>
              ) : (
                <>
                  <Link href="/dashboard" className="brand">
                    Encore <span className="brand-tag">Staff</span>
                  </Link>
                  <SearchBox />
                  <DashboardNav />
                </>
              )}
              <SidebarFooter member={member} />
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

/** Who is signed in, with their role, their own Security page (two-factor sign-in), and the way out. */
function SidebarFooter({ member }: { member: MemberSession }) {
  return (
    <div className="sidebar-footer">
      <span className="sidebar-user" title={member.email}>
        {member.email}
      </span>
      <span className="sidebar-role" data-testid="signed-in-role">
        {isPartnerUser(member) ? PARTNER_ROLE_LABELS[member.role].name : ROLE_LABELS[member.role].name}
      </span>
      <ButtonLink href="/dashboard/security" size="sm" variant="ghost">
        Security
      </ButtonLink>
      <SignOutButton />
    </div>
  );
}
