import Link from '@/components/ui/link';

export function PageHeader({
  title,
  description,
  actions,
  back,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  /** A link one level up, e.g. back to the partner list. */
  back?: { href: string; label: string };
}) {
  return (
    <header className="page-header">
      {back && (
        <Link href={back.href} className="page-back">
          ← {back.label}
        </Link>
      )}
      <div className="page-header-row">
        <div>
          <h1 className="page-title">{title}</h1>
          {description && <div className="page-description">{description}</div>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </div>
    </header>
  );
}
