'use client';

import Link from '@/components/ui/link';
import { usePathname } from 'next/navigation';

export interface NavItem {
  href: string;
  label: string;
  /** Active only on this exact path (the overview), not on everything below it. */
  exact?: boolean;
}

/** Dashboard sections. A new section (events, webhooks, jobs) is one line here once its pages exist. */
const NAV_ITEMS: NavItem[] = [
  { href: '/dashboard', label: 'Overview', exact: true },
  { href: '/dashboard/partners', label: 'Partners' },
  { href: '/dashboard/money', label: 'Money' },
  { href: '/dashboard/jobs', label: 'Jobs' },
  { href: '/dashboard/mailbox', label: 'Mailbox' },
  { href: '/dashboard/staff', label: 'Staff' },
  { href: '/dashboard/audit', label: 'Audit log' },
];

/** The staff's sections, or `items` (a partner user's: their partner's pages). */
export function DashboardNav({ items = NAV_ITEMS }: { items?: NavItem[] }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Dashboard">
      <ul>
        {items.map((item) => {
          const active = item.exact
            ? pathname === item.href
            : pathname === item.href || pathname.startsWith(`${item.href}/`);
          return (
            <li key={item.href}>
              <Link href={item.href} className="nav-link" aria-current={active ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
