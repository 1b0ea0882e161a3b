import Form from 'next/form';
import Link from 'next/link';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/field';

/** A GET form: the search lives in the URL (?q=), so results can be shared and the back button works. */
export function PartnerSearch({ query }: { query: string }) {
  return (
    <Form action="/dashboard/partners" className="toolbar" role="search">
      <label htmlFor="partner-search" className="sr-only">
        Search partners by name
      </label>
      <Input
        id="partner-search"
        name="q"
        type="search"
        defaultValue={query}
        placeholder="Search by name"
        maxLength={120}
        autoComplete="off"
        key={query}
      />
      <Button type="submit">Search</Button>
      {query && (
        <Link href="/dashboard/partners" className="toolbar-link">
          Clear search
        </Link>
      )}
    </Form>
  );
}
