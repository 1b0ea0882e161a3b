export function Card({ children, className, ...rest }: React.ComponentProps<'section'>) {
  return (
    <section className={['card', className ?? ''].filter(Boolean).join(' ')} {...rest}>
      {children}
    </section>
  );
}

export function CardHeader({
  title,
  description,
  actions,
  headingId,
}: {
  title: React.ReactNode;
  description?: React.ReactNode;
  actions?: React.ReactNode;
  /** Lets the surrounding <section> point at its heading with aria-labelledby. */
  headingId?: string;
}) {
  return (
    <header className="card-header">
      <div>
        <h2 className="card-title" id={headingId}>
          {title}
        </h2>
        {description && <p className="card-description">{description}</p>}
      </div>
      {actions && <div className="card-actions">{actions}</div>}
    </header>
  );
}

export function CardBody({ children, flush = false }: { children: React.ReactNode; flush?: boolean }) {
  return <div className={flush ? 'card-body card-body-flush' : 'card-body'}>{children}</div>;
}
