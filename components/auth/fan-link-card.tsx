import type { ReactNode } from 'react';
import Link from '@/components/ui/link';
import { DEFAULT_FAN_PATH } from '@/server/modules/fans';

/**
 * The fan's pages about a one-time link that did not sign them in (expired, too many tried): one card in
 * the brand of the partner `known` (else Encore's), its title and lead, what to do (`children`) and, when
 * the link was going somewhere else than the fan's default page, a way on to it.
 */
export function FanLinkCard({
  locale,
  known,
  title,
  lead,
  next,
  continueLabel,
  children,
}: {
  locale: string;
  known: { name: string } | null;
  title: string;
  lead: string;
  next: string;
  continueLabel: string;
  children: ReactNode;
}) {
  return (
    <main className="auth-page" lang={locale}>
      <div className="auth-card">
        <p className="brand auth-brand" data-testid="partner-brand">
          {known ? `${known.name} · Encore` : 'Encore'}
        </p>
        <h1 className="auth-title">{title}</h1>
        <p className="auth-lead">{lead}</p>
        {children}
        {next !== DEFAULT_FAN_PATH ? (
          <p>
            <Link href={next}>{continueLabel}</Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
