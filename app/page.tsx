import Link from '@/components/ui/link';

export default function Home() {
  return (
    <main className="landing">
      <h1>Encore</h1>
      <p>Encore connects primary ticketing platforms with a resale market.</p>
      <ul>
        <li>
          <Link href="/dashboard">Staff dashboard</Link>
        </li>
        <li>
          <Link href="/docs">Partner API reference</Link>
        </li>
      </ul>
    </main>
  );
}
