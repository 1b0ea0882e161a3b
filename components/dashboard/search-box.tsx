import { Button } from '@/components/ui/button';
import styles from './search-box.module.css';

/**
 * The support search in the sidebar of every dashboard page: a plain GET form to /dashboard/search, so it
 * works without JavaScript and the result is a URL staff can share. No maxLength: over-long input gets
 * the search page's message rather than being cut silently.
 */
export function SearchBox() {
  return (
    <form action="/dashboard/search" method="get" role="search" aria-label="Support search" className={styles.box}>
      <label htmlFor="support-search" className={styles.label}>
        Search
      </label>
      <div className={styles.row}>
        <input
          id="support-search"
          name="q"
          type="search"
          className="input"
          placeholder="E-mail or id"
          autoComplete="off"
          required
          aria-describedby="support-search-hint"
        />
        <Button type="submit" size="sm">
          Go
        </Button>
      </div>
      <p id="support-search-hint" className="sr-only">
        A fan&rsquo;s e-mail, or a ticket, listing, order, payment or purchase id.
      </p>
    </form>
  );
}
