import Form from 'next/form';
import Link from '@/components/ui/link';
import { Button } from './button';
import { Input } from './field';

/**
 * A GET form: the search lives in the URL (?q=), so results can be shared and back/forward work.
 * Submitting drops the page number or cursor, so a new search starts on its first page.
 */
export function SearchForm({
  action,
  id,
  label,
  placeholder,
  query,
  hint,
  maxLength = 254,
}: {
  action: string;
  id: string;
  label: string;
  placeholder: string;
  query: string;
  hint?: string;
  /** The API's limit for this search; longer input is cut by the page anyway. */
  maxLength?: number;
}) {
  return (
    <div className="search-form">
      <Form action={action} className="toolbar" role="search" aria-label={label}>
        <label htmlFor={id} className="sr-only">
          {label}
        </label>
        <Input
          id={id}
          name="q"
          type="search"
          defaultValue={query}
          placeholder={placeholder}
          maxLength={maxLength}
          autoComplete="off"
          aria-describedby={hint ? `${id}-hint` : undefined}
          key={query}
        />
        <Button type="submit">Search</Button>
        {query && (
          <Link href={action} className="toolbar-link">
            Clear search
          </Link>
        )}
      </Form>
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
