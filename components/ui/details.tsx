import type { ComponentProps, ReactNode } from 'react';

/**
 * Label/value pairs of one thing (a partner's id, a message's attempts). `stats` shows each pair as a
 * small tile with a large figure, for counts.
 */
export function DetailList({
  variant = 'details',
  className,
  ...rest
}: ComponentProps<'dl'> & { variant?: 'details' | 'stats' }) {
  return (
    <dl
      className={[variant === 'stats' ? 'stat-list' : 'details', className ?? ''].filter(Boolean).join(' ')}
      {...rest}
    />
  );
}

/** One pair of a <DetailList>; the value's attributes (a test id) go on its <dd>. */
export function Detail({
  term,
  title,
  children,
  ...value
}: Omit<ComponentProps<'dd'>, 'title'> & { term: ReactNode; title?: string }) {
  return (
    <div title={title}>
      <dt>{term}</dt>
      <dd {...value}>{children}</dd>
    </div>
  );
}
