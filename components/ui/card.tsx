import { type ComponentProps, type ReactNode, useId } from 'react';

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

/**
 * A card with a heading that names it for assistive technology (the section is labelled by its
 * heading). `headingId` when something else points at the heading too; a generated one otherwise.
 */
export function SectionCard({
  title,
  description,
  actions,
  headingId,
  children,
  ...rest
}: Omit<ComponentProps<'section'>, 'title'> & {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  headingId?: string;
}) {
  const generatedId = useId();
  const id = headingId ?? generatedId;
  return (
    <Card aria-labelledby={id} {...rest}>
      <CardHeader headingId={id} title={title} description={description} actions={actions} />
      {children}
    </Card>
  );
}

/** A titled part of a card's body ("Event feed", "Signing and testing"), labelled by its heading. */
export function Subsection({ title, children }: { title: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h3 className="subsection-title" id={headingId}>
        {title}
      </h3>
      {children}
    </section>
  );
}
