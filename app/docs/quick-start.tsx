import { Code } from './code';
import { docsReference } from './reference';
import clientPackage from '@/client/package.json';

/**
 * The quick start: the typed client, the project around it (its package.json and tsconfig.json), the
 * install line for this Encore's download and the quick start file, all read from docs/quick-start/ as
 * e2e/typed-client.spec.ts writes, type-checks and runs them.
 */
export function QuickStartSection({ baseUrl }: { baseUrl: string }) {
  const { quickStart, quickStartProject } = docsReference();
  return (
    <>
      <h2 id="quick-start">Quick start: a typed client</h2>
      <p>
        <code>@encore/partner-client</code> is Encore&apos;s typed client, generated from this API&apos;s OpenAPI
        document (<code>{baseUrl}/v1/openapi.json</code>) on every build: paths, parameters, bodies and answers checked
        by your compiler. It sends an <code>Idempotency-Key</code> on every write by default, retries a 429 and a 5xx
        with backoff honouring <code>Retry-After</code>, throws the envelope&apos;s error as an{' '}
        <code>EncoreApiError</code> (status, code, details, request id) and verifies the webhooks you receive (
        <code>verifyWebhook</code>, each message typed by its <code>action</code>). A project for it: this{' '}
        <code>package.json</code> and <code>tsconfig.json</code> (ES modules, strict TypeScript), with{' '}
        <code>partner-integration.ts</code> below beside them, then <code>npm install</code>:
      </p>
      <Code label="package.json">{quickStartProject.packageJson}</Code>
      <Code label="tsconfig.json">{quickStartProject.tsconfig}</Code>
      <p>
        This Encore serves the package built with its API (
        <a href={`/downloads/encore-partner-client-${clientPackage.version}.tgz`}>
          encore-partner-client-{clientPackage.version}.tgz
        </a>
        , MIT-licensed); install it with:
      </p>
      <Code label="Install the client">{`npm install ${baseUrl}/downloads/encore-partner-client-${clientPackage.version}.tgz`}</Code>
      <p>
        Then an integration is a few typed calls: publish an event and its price rule, sync the tickets you sold, get
        the URLs to send fans to, read what is on sale and hold a listing for a buyer with an idempotency key; and a
        webhook receiver that handles each message by its action. <code>npm run check</code> type-checks it;{' '}
        <code>ENCORE_URL={baseUrl} ENCORE_KEY=sk_test_… npm start</code> runs it. Our test suite downloads the client
        into a project of these two files, type-checks this file against it (and checks that a misspelled field fails)
        and runs it on the built server on every change.
      </p>
      <Code label="partner-integration.ts">{quickStart}</Code>
    </>
  );
}
