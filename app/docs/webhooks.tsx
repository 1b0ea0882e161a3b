import { Code, pretty } from './code';
import { VERIFY_NODE, WEBHOOK_HEADERS, webhookExamples } from './guide';

/** What Encore sends a partner: each webhook with an example, the delivery rules, and how to verify one. */
export function WebhooksSection() {
  return (
    <>
      <h2 id="webhooks">Webhooks</h2>
      <p>
        Encore sends a <code>POST</code> with a JSON body <code>{'{ family, action, data }'}</code> to the URL you give
        your account manager (HTTPS with a valid certificate; there is no registration endpoint). The OpenAPI document
        lists each message under <code>webhooks</code>, keyed by its <code>action</code>, with the schema of its body
        and its signature headers; the typed client&apos;s <code>verifyWebhook</code> answers them typed by action.
      </p>
      {webhookExamples.map((w) => (
        <div key={w.action}>
          <h4>
            <code>{w.action}</code>
          </h4>
          <p>{w.when}</p>
          <Code label={`Webhook ${w.action}`}>{pretty({ family: w.family, action: w.action, data: w.data })}</Code>
        </div>
      ))}
      <h3>Delivery rules</h3>
      <ul>
        <li>
          Delivered only when your endpoint answers <strong>200, 201, 202 or 204</strong>. Anything else, a redirect
          (not followed), a timeout or a connection error is a failure.
        </li>
        <li>
          Retries never stop: the interval grows from 5 seconds to 8 minutes over 50 retries, then every 12 to 24 hours
          until accepted. A long outage makes messages arrive late.
        </li>
        <li>
          <strong>At least once</strong>: a message may arrive more than once (e.g. your 2xx was lost). The{' '}
          <code>webhook-id</code> header is the same on every attempt of a message; drop ids you already processed.
          Order between messages is not guaranteed.
        </li>
        <li>
          Answer quickly (queue the work); a slow answer counts as a failure and is retried. Optionally Encore also
          sends a static secret header you agree with your account manager.
        </li>
      </ul>
      <h3>Verifying the signature (Standard Webhooks)</h3>
      <p>
        Every request is signed per the <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> scheme:
        HMAC-SHA256 over <code>{'${webhook-id}.${webhook-timestamp}.${raw body}'}</code> with your <code>whsec_…</code>{' '}
        secret (base64 after the prefix), sent as <code>v1,&lt;base64&gt;</code> in <code>webhook-signature</code>{' '}
        (several space-separated during a secret rotation).
      </p>
      <Code label="Webhook request headers">{WEBHOOK_HEADERS}</Code>
      <Code label="Verifying a webhook in Node">{VERIFY_NODE}</Code>
    </>
  );
}
