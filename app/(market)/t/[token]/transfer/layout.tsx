import { ClientMessages } from '@/components/market/client-messages';

/** The transfer form is a client component: its messages go to the browser. */
export default function Layout({ children }: { children: React.ReactNode }) {
  return <ClientMessages namespaces={['sell', 'listing']}>{children}</ClientMessages>;
}
