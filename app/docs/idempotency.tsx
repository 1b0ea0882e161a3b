import { Code } from './code';
import { IDEMPOTENCY_REPLAY, idempotencyCall } from './guide';
import { operationHref } from './operation-search';

/** Retrying safely: the `Idempotency-Key` header on POST, PUT and DELETE (server/http/idempotency.ts). */
export function IdempotencySection({ baseUrl }: { baseUrl: string }) {
  return (
    <>
      <h2 id="idempotency">Retrying safely: Idempotency-Key</h2>
      <p>
        A call that timed out may or may not have run. Send an <code>Idempotency-Key</code> header (any unique string up
        to 255 characters, e.g. a UUID) on a <code>POST</code>, <code>PUT</code> or <code>DELETE</code>, and send the
        same key when you retry it:
      </p>
      <ul>
        <li>
          The same key with the same request (method, path, query and JSON body; key order aside) within 24 hours
          answers the first call&apos;s status and body again, with <code>Idempotent-Replayed: true</code>. Nothing runs
          a second time.
        </li>
        <li>
          The same key with another request answers <strong>422</strong> (<code>IDEMPOTENCY_KEY_REUSED</code>, naming
          the header). A key longer than 255 characters answers 400.
        </li>
        <li>
          Calls with one key at the same time run once: the others wait for the first and replay its answer, or after 10
          seconds answer <strong>409</strong> with <code>Retry-After</code>.
        </li>
        <li>
          If our server stops in the middle of a call, what the call did and its answer are stored together: the retry
          gets that answer, and the call is not applied twice. Where we could not give the answer back, the retry
          answers <strong>409</strong> saying the call was applied (read the result with a <code>GET</code>).
        </li>
        <li>
          Stored: any answer the call itself gave, a 200 or a 4xx (e.g. 404, 409). Not stored, so a retry runs the call
          again: answers refused before it ran (401, 403, 429, a 400 from the input checks) and failures on our side
          (5xx).
        </li>
        <li>
          Keys are per partner (all your partner API keys share them) and per channel on the Channels API; no one
          else&apos;s key ever meets yours. After 24 hours a key is forgotten and may be used again. <code>GET</code>{' '}
          calls ignore the header.
        </li>
      </ul>
      <p>
        For example, the event of the <a href={operationHref('createEvent')}>POST /v1/events</a> example, saved as{' '}
        <code>event.json</code>, sent twice. Without the key the retry would answer 409 (the event exists); with it:
      </p>
      <Code label="Call with an Idempotency-Key">{idempotencyCall(baseUrl)}</Code>
      <Code label="Answer to the same call sent again">{IDEMPOTENCY_REPLAY}</Code>
    </>
  );
}
