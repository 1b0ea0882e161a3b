import Form from 'next/form';
import Link from '@/components/ui/link';
import { Button } from '@/components/ui/button';
import { Field, SelectField } from '@/components/ui/field';
import styles from './overview.module.css';

export interface OverviewFilterValues {
  from: string;
  to: string;
  partnerId?: string;
  eventId?: string;
}

/**
 * The overview's filters as a GET form (the figures live in the URL: shareable, and it works without
 * JavaScript). The event list is the chosen partner's: choose a partner and apply, then an event.
 */
export function OverviewFilters({
  values,
  partners,
  events,
  errors,
}: {
  values: OverviewFilterValues;
  partners: { id: string; name: string }[];
  events: { id: string; title: string }[];
  errors: Partial<Record<'from' | 'to', string>>;
}) {
  return (
    <Form action="/dashboard" className={styles.filters} aria-label="Overview filters" data-testid="overview-filters">
      <Field
        label="From"
        name="from"
        type="date"
        defaultValue={values.from}
        required
        error={errors.from}
        key={`f${values.from}`}
      />
      <Field
        label="To"
        name="to"
        type="date"
        defaultValue={values.to}
        required
        error={errors.to}
        key={`t${values.to}`}
      />
      <SelectField label="Partner" name="partner" defaultValue={values.partnerId ?? ''} key={`p${values.partnerId}`}>
        <option value="">All partners</option>
        {partners.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </SelectField>
      {values.partnerId ? (
        <SelectField label="Event" name="event" defaultValue={values.eventId ?? ''} key={`e${values.eventId}`}>
          <option value="">All events</option>
          {events.map((e) => (
            <option key={e.id} value={e.id}>
              {e.title}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div className={styles.filterActions}>
        <Button type="submit" variant="primary">
          Apply
        </Button>
        <Link href="/dashboard">Last 30 days, all partners</Link>
      </div>
    </Form>
  );
}
