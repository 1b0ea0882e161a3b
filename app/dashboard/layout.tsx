import type { Metadata } from 'next';
import Link from '@/components/ui/link';
import { DashboardNav } from '@/components/dashboard/nav';
import { ROLE_LABELS } from '@/components/dashboard/role-names';
import { SearchBox } from '@/components/dashboard/search-box';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { StaffRoleProvider } from '@/components/dashboard/staff-role';
import { TRPCReactProvider } from '@/components/trpc/provider';
import { getStaffSession } from '@/server/auth/session';

export const metadata: Metadata = { title: { default: 'Dashboard', template: '%s · Encore dashboard' } };

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const staff = await getStaffSession();
  // A layout cannot know the URL, so the redirect to sign-in is left to each page's requireStaff(path),
  // which keeps the way back. The data stays closed regardless: every tRPC procedure needs a session.
  if (!staff) return children;
  return (
    <TRPCReactProvider>
      <StaffRoleProvider role={staff.role}>
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
      </StaffRoleProvider>
    </TRPCReactProvider>
  );
}
