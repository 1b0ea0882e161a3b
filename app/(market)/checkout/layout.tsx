import { ClientMessages } from '@/components/market/client-messages';

/** The checkout's form is a client component: its messages go to the browser. */
export default function Layout({ children }: { children: React.ReactNode }) {
  return <ClientMessages namespaces={['checkout']}>{children}</ClientMessages>;
}
