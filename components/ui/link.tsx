'use client';

import NextLink from 'next/link';
import { type ComponentProps, useState } from 'react';

/**
 * `next/link` that prefetches on intent (pointer over it, keyboard focus, a touch), not when it scrolls
 * into view. Next.js prefetches every link in the viewport, and a dashboard page without `loading.js` is
 * prefetched whole: a list made the server render the page of every row's link, database reads
 * included, for one click (four e2e files: 504 prefetches beside 100 page loads). Once a person points at
 * a link it prefetches as Next.js would. `prefetch={false}` still turns prefetching off altogether.
 */
export default function Link({
  prefetch,
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: ComponentProps<typeof NextLink>) {
  const [intent, setIntent] = useState(false);
  return (
    <NextLink
      {...props}
      prefetch={prefetch === false || !intent ? false : prefetch}
      onMouseEnter={(event) => {
        setIntent(true);
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        setIntent(true);
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        setIntent(true);
        onTouchStart?.(event);
      }}
    />
  );
}
