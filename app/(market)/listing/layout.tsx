import { ClientMessages } from '@/components/market/client-messages';

/** The listing's forms (reprice, unlist, transfer, copy link) are client components: their messages go to the browser. */
export default function Layout({ children }: { children: React.ReactNode }) {
  return <ClientMessages namespaces={['sell', 'listing']}>{children}</ClientMessages>;
}
