import { TRPCError } from '@trpc/server';
import { notFound } from 'next/navigation';
import { ButtonLink } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import type { SearchParams } from '@/components/ui/search-params';
import { withParams } from '@/components/ui/url';
import { requireMember } from '@/server/auth/session';
import { isPartnerUser } from '@/server/modules/staff';
import { getQueryClient, trpc } from '@/server/trpc/server';
import { batchesPath, eventsPath, partnerPath } from './paths';

/**
 * For server pages: an unknown id (or another partner's) renders the route's not-found page, and so does
 * an id the API refuses as malformed (too long, say): it names nothing, and is no reason for a 500.
 */
function notFoundOn404(err: unknown): never {
  if (err instanceof TRPCError && (err.code === 'NOT_FOUND' || err.code === 'BAD_REQUEST')) notFound();
  throw err;
}

/** What Next.js gives a page below /dashboard/partners/[partnerId]; `P` names the other segments. */
export interface PartnerPageProps<P extends object = object> {
  params: Promise<{ partnerId: string } & P>;
  searchParams: Promise<SearchParams>;
}

type QueryClient = ReturnType<typeof getQueryClient>;

/**
 * The start of every page of one partner: staff, or the partner's own users (signing in leads back to
 * `path` with `query`), then the partner and what the page shows of it (`load`), read together. An unknown
 * partner, another partner of a partner's user, or an unknown thing of it, is the route's not-found page
 * rather than an error inside the page; so is a page for Encore's staff alone (`staffOnly`) to a partner's
 * user. Also gives the signed-in member, whose role decides which controls the page shows.
 */
export async function loadPartnerPage<T = undefined>(
  partnerId: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
  load?: (queryClient: QueryClient) => Promise<T>,
  { staffOnly = false }: { staffOnly?: boolean } = {},
) {
  const member = await requireMember(withParams(path, query));
  if (staffOnly && isPartnerUser(member)) notFound();
  const queryClient = getQueryClient();
  const [partner, data] = await Promise.all([
    queryClient.fetchQuery(trpc.partners.get.queryOptions({ partnerId })).catch(notFoundOn404),
    load ? load(queryClient).catch(notFoundOn404) : (undefined as T),
  ]);
  return { queryClient, partner, data, member };
}

const SIBLINGS = {
  events: { path: eventsPath, label: 'Events' },
  batches: { path: batchesPath, label: 'Ticket batches' },
} as const;

/** The heading of a page of one partner, with the way back to the partner and to sibling pages. */
export function PartnerPageHeader({
  partner,
  title,
  description,
  links = [],
}: {
  partner: { id: string; name: string };
  title: React.ReactNode;
  description: React.ReactNode;
  links?: (keyof typeof SIBLINGS)[];
}) {
  return (
    <PageHeader
      title={title}
      description={description}
      back={{ href: partnerPath(partner.id), label: partner.name }}
      actions={
        links.length > 0 && (
          <>
            {links.map((link) => (
              <ButtonLink key={link} href={SIBLINGS[link].path(partner.id)}>
                {SIBLINGS[link].label}
              </ButtonLink>
            ))}
          </>
        )
      }
    />
  );
}
