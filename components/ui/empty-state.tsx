import { ButtonLink } from './button';

export function EmptyState({
  title,
  description,
  action,
}: {
  title: string;
  description?: React.ReactNode;
  action?: React.ReactNode;
}) {
  return (
    <div className="empty-state">
      <p className="empty-state-title">{title}</p>
      {description && <p className="empty-state-description">{description}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}

/** An empty state with one way on: "Clear search", "Back to partners". */
export function EmptyStateWithLink({
  title,
  description,
  link,
}: {
  title: string;
  description?: React.ReactNode;
  link: { href: string; label: string };
}) {
  return (
    <EmptyState
      title={title}
      description={description}
      action={<ButtonLink href={link.href}>{link.label}</ButtonLink>}
    />
  );
}

/** A search that found nothing: what was searched for, how to search instead, and the way back to all. */
export function NoMatch({
  noun,
  query,
  description,
  clearHref,
}: {
  /** What the list holds, plural: "partners". */
  noun: string;
  query: string;
  description: string;
  clearHref: string;
}) {
  return (
    <EmptyStateWithLink
      title={`No ${noun} match “${query}”`}
      description={description}
      link={{ href: clearHref, label: 'Clear search' }}
    />
  );
}
