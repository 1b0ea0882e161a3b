import { ClientMessages } from '@/components/market/client-messages';

/** The sell forms are client components: their messages go to the browser. */
export default function Layout({ children }: { children: React.ReactNode }) {
  return <ClientMessages namespaces={['sell']}>{children}</ClientMessages>;
}
