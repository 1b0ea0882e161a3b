import Link from '@/components/ui/link';
import { DashboardNav, type NavItem } from '@/components/dashboard/nav';
import { PARTNER_ROLE_LABELS } from '@/components/dashboard/role-names';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { partnerMay } from '@/server/lib/staff-roles';
import type { PartnerUserSession } from '@/server/modules/staff';
import {
  bannersPath,
  embedPath,
  eventsPath,
  marketPath,
  partnerPath,
  rulesPath,
  statementPath,
  teamPath,
  webhookLogPath,
} from './partners/_shared/paths';

/** A partner user's sections: their partner's pages alone; Team for the owner, who manages its users. */
function partnerNavItems(user: PartnerUserSession): NavItem[] {
  const id = user.partnerId;
  return [
    { href: partnerPath(id), label: 'Overview', exact: true },
    { href: eventsPath(id), label: 'Events' },
    { href: marketPath(id), label: 'Market' },
    { href: statementPath(id), label: 'Fees and payouts' },
    { href: webhookLogPath(id), label: 'Webhook log' },
    { href: embedPath(id), label: 'Embed' },
    { href: rulesPath(id), label: 'Resale rules' },
    { href: bannersPath(id), label: 'Banners' },
    ...(partnerMay(user.role, 'users') ? [{ href: teamPath(id), label: 'Team' }] : []),
  ];
}

/** The dashboard's frame for a partner's user: their partner's name, its pages, who is signed in. */
export function PartnerShell({
  user,
  partnerName,
  children,
}: {
  user: PartnerUserSession;
  partnerName: string;
  children: React.ReactNode;
}) {
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="sidebar-inner">
          <Link href="/dashboard" className="brand" data-testid="partner-brand">
            {partnerName} <span className="brand-tag">Encore</span>
          </Link>
          <DashboardNav items={partnerNavItems(user)} />
          <div className="sidebar-footer">
            <span className="sidebar-user" title={user.email}>
              {user.email}
            </span>
            <span className="sidebar-role" data-testid="signed-in-role">
              {PARTNER_ROLE_LABELS[user.role].name}
            </span>
            <SignOutButton />
          </div>
        </div>
      </aside>
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
