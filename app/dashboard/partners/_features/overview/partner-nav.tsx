import { TableSuspense } from '@/components/ui/table';
import styles from './partner-nav.module.css';

/**
 * The partner page's sections, in page order. The page was one long scroll; a sticky list of
 * anchors lets support jump to the part they need. "Settings" belongs to the partner settings
 * section (rename/disable) that renders with id="settings".
 */
export const PARTNER_SECTIONS = [
  { id: 'details', label: 'Details' },
  { id: 'keys', label: 'Keys' },
  { id: 'test-mode', label: 'Test mode' },
  { id: 'channels', label: 'Channels' },
  { id: 'integration', label: 'Integration' },
  { id: 'fees', label: 'Fees' },
  { id: 'market', label: 'Market' },
  { id: 'protection', label: 'Protection' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'catalogue', label: 'Catalogue' },
  { id: 'settings', label: 'Settings' },
  { id: 'audit', label: 'Audit' },
] as const;

export type PartnerSectionId = (typeof PARTNER_SECTIONS)[number]['id'];

/** The anchors, but for the sections `without` names (those the signed-in member is not shown). */
export function PartnerNav({ without = [] }: { without?: readonly PartnerSectionId[] }) {
  return (
    <nav className={styles.nav} aria-label="Partner sections" data-testid="partner-nav">
      <ul className={styles.list}>
        {PARTNER_SECTIONS.filter((s) => !without.includes(s.id)).map((s) => (
          <li key={s.id}>
            <a className={styles.link} href={`#${s.id}`}>
              {s.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * An anchor target for one nav item; scroll-margin keeps its heading clear of the sticky nav. With
 * `loading`, what it holds streams in behind a table skeleton of that shape.
 */
export function PartnerSection({
  id,
  loading,
  children,
}: {
  id: PartnerSectionId;
  loading?: { label: string; rows: number; columns: number };
  children: React.ReactNode;
}) {
  return (
    <div id={id} className={styles.section}>
      {loading ? <TableSuspense {...loading}>{children}</TableSuspense> : children}
    </div>
  );
}
