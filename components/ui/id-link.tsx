import Link from '@/components/ui/link';

/** The first cell of a list's row: the thing's id, in code type, linking to its page. */
export function IdLink({ href, id }: { href: string; id: string }) {
  return (
    <Link href={href} className="strong-link">
      <code className="mono">{id}</code>
    </Link>
  );
}
