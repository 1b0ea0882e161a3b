'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useId, useRef, useState } from 'react';
import { ActionForm, FormActions } from '@/components/ui/action-form';
import { Alert, ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard, Subsection } from '@/components/ui/card';
import { Field, Input, UrlField } from '@/components/ui/field';
import { Table } from '@/components/ui/table';
import { Detail, DetailList } from '@/components/ui/details';
import { Time } from '@/components/ui/time';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import {
  FEED_INTERVAL_MINUTES,
  type VerificationFieldName,
  verificationFieldNames,
} from '@/server/modules/partners/schemas';
import type { AppRouter } from '@/server/trpc/router';
import layout from '../../_shared/form-layout.module.css';
import { HeaderFields } from '../../_shared/header-fields';
import styles from './integration-section.module.css';

type Outputs = inferRouterOutputs<AppRouter>['partners']['integration'];
type Settings = Outputs['get'];
type CallFailure = Extract<Outputs['fetchFeedNow'], { ok: false }>['error'];

/**
 * The partner's integration: where Encore verifies ticket ownership and reads the event feed, the
 * auth header both calls carry (write-only: only a hint of the stored value is shown), the feed's
 * last and next run, and two live tests against the partner's servers.
 */
export function IntegrationSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const { data: settings } = useSuspenseQuery(trpc.partners.integration.get.queryOptions({ partnerId }));

  return (
    <SectionCard
      data-testid="integration"
      title="Integration"
      description="How Encore calls this partner's servers: ticket verification (asked fresh whenever a fan sells or buys) and the event feed."
    >
      <div className="card-body">
        <SettingsForm settings={settings} />
      </div>
      <div className="card-body">
        <FeedPanel settings={settings} />
      </div>
      <div className="card-body">
        <VerificationTest settings={settings} />
      </div>
    </SectionCard>
  );
}

/* ---------- Settings ---------- */

interface MapRow {
  key: number;
  from: string;
  to: VerificationFieldName;
}

let rowKey = 0;
const isFieldName = (v: string): v is VerificationFieldName =>
  (verificationFieldNames as readonly string[]).includes(v);
const rowsOf = (map: Record<string, string>): MapRow[] =>
  Object.entries(map).flatMap(([from, to]) => (isFieldName(to) ? [{ key: ++rowKey, from, to }] : []));

function SettingsForm({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const partnerId = settings.partnerId;

  const [verificationUrl, setVerificationUrl] = useState(settings.verificationUrl ?? '');
  const [rows, setRows] = useState<MapRow[]>(() => rowsOf(settings.verificationFieldMap));
  const [feedUrl, setFeedUrl] = useState(settings.feedUrl ?? '');
  const [intervalText, setIntervalText] = useState(String(settings.feedIntervalMinutes));
  const [headerName, setHeaderName] = useState(settings.authHeaderName ?? '');
  const [headerValue, setHeaderValue] = useState('');
  const [removeHeader, setRemoveHeader] = useState(false);
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const newRowInput = useRef<HTMLInputElement>(null);

  const update = useMutation(
    trpc.partners.integration.update.mutationOptions({
      onSuccess: (next) => {
        queryClient.setQueryData(trpc.partners.integration.get.queryKey({ partnerId }), next);
        // The form shows what was stored; the secret never comes back, so its input empties.
        setVerificationUrl(next.verificationUrl ?? '');
        setRows(rowsOf(next.verificationFieldMap));
        setFeedUrl(next.feedUrl ?? '');
        setIntervalText(String(next.feedIntervalMinutes));
        setHeaderName(next.authHeaderName ?? '');
        setHeaderValue('');
        setRemoveHeader(false);
        setSaved(true);
      },
    }),
  );

  const serverErrors = fieldErrors(update.error);
  const errorOf = (field: string) => localErrors[field] ?? serverErrors[field] ?? null;
  const anyFieldError = Object.values(serverErrors).some(Boolean);

  function submit() {
    setSaved(false);
    const problems: Record<string, string> = {};
    const minutes = Number(intervalText);
    if (intervalText.trim() === '' || !Number.isInteger(minutes)) problems.feedIntervalMinutes = 'Enter whole minutes';
    if (rows.some((r) => r.from.trim() === '')) {
      problems.verificationFieldMap = 'Enter the partner’s field name in every row, or remove the row';
    }
    setLocalErrors(problems);
    if (Object.keys(problems).length > 0) return;
    update.mutate({
      partnerId,
      verificationUrl,
      verificationFieldMap: Object.fromEntries(rows.map((r) => [r.from.trim(), r.to])),
      feedUrl,
      feedIntervalMinutes: minutes,
      authHeaderName: removeHeader ? null : headerName,
      // Empty keeps the stored secret; removing the header removes it.
      ...(removeHeader ? { authHeaderValue: null } : headerValue ? { authHeaderValue: headerValue } : {}),
    });
  }

  const usedTargets = new Set(rows.map((r) => r.to));
  const mapError = errorOf('verificationFieldMap');
  const mapErrorId = useId();

  return (
    <ActionForm onSubmit={submit} aria-label="Integration settings" error={update.error} errorAtField={anyFieldError}>
      <fieldset className={layout.group}>
        <legend className={layout.legend}>Ticket verification</legend>
        <UrlField
          label="Verification URL"
          name="verificationUrl"
          placeholder="https://tickets.partner.example/encore"
          value={verificationUrl}
          onChange={(e) => setVerificationUrl(e.target.value)}
          error={errorOf('verificationUrl')}
          hint={
            <>
              Encore calls{' '}
              <code className="mono">
                GET {'{URL}'}/tickets?user={'{e-mail}'}
              </code>{' '}
              before every sale.
            </>
          }
        />
        <div
          className="field"
          role="group"
          aria-labelledby={`${mapErrorId}-label`}
          aria-describedby={mapError ? mapErrorId : `${mapErrorId}-hint`}
        >
          <span className="field-label" id={`${mapErrorId}-label`}>
            Field names <span className="field-optional">(optional)</span>
          </span>
          <p className="field-hint" id={`${mapErrorId}-hint`}>
            When the partner’s answer names a field differently, map its name to Encore’s. Applies to the answer and to
            each ticket in it.
          </p>
          {rows.map((row, i) => (
            <div className={styles.mapRow} key={row.key}>
              <Input
                ref={i === rows.length - 1 ? newRowInput : undefined}
                aria-label={`Partner field name, row ${i + 1}`}
                placeholder="e.g. email"
                value={row.from}
                maxLength={100}
                aria-invalid={mapError && row.from.trim() === '' ? true : undefined}
                onChange={(e) => setRows(rows.map((r) => (r.key === row.key ? { ...r, from: e.target.value } : r)))}
              />
              <span className={styles.arrow} aria-hidden="true">
                →
              </span>
              <select
                className="input"
                aria-label={`Encore field, row ${i + 1}`}
                value={row.to}
                onChange={(e) => {
                  const to = e.target.value;
                  if (isFieldName(to)) setRows(rows.map((r) => (r.key === row.key ? { ...r, to } : r)));
                }}
              >
                {verificationFieldNames.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove row ${i + 1}`}
                onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
              >
                Remove
              </Button>
            </div>
          ))}
          {mapError && (
            <p className="field-error" id={mapErrorId}>
              {mapError}
            </p>
          )}
          <div>
            <Button
              size="sm"
              disabled={rows.length >= 30}
              onClick={() => {
                const to = verificationFieldNames.find((n) => !usedTargets.has(n)) ?? verificationFieldNames[0];
                setRows([...rows, { key: ++rowKey, from: '', to }]);
                requestAnimationFrame(() => newRowInput.current?.focus());
              }}
            >
              Add field name
            </Button>
          </div>
        </div>
      </fieldset>

      <fieldset className={layout.group}>
        <legend className={layout.legend}>Event feed</legend>
        <div className={layout.twoColumns}>
          <UrlField
            label="Feed URL"
            name="feedUrl"
            placeholder="https://partner.example/feed.json"
            value={feedUrl}
            onChange={(e) => setFeedUrl(e.target.value)}
            error={errorOf('feedUrl')}
            hint="JSON with externalReferenceId and shows, or an array of such events."
          />
          <Field
            label="Read every (minutes)"
            name="feedIntervalMinutes"
            type="number"
            inputMode="numeric"
            required
            min={FEED_INTERVAL_MINUTES.min}
            max={FEED_INTERVAL_MINUTES.max}
            step={1}
            value={intervalText}
            onChange={(e) => setIntervalText(e.target.value)}
            error={errorOf('feedIntervalMinutes')}
            hint={`${FEED_INTERVAL_MINUTES.min} to ${FEED_INTERVAL_MINUTES.max} (one day).`}
          />
        </div>
      </fieldset>

      <fieldset className={layout.group}>
        <legend className={layout.legend}>Auth header</legend>
        <p className="field-hint">Sent with both calls so the partner knows it is Encore. The value is a secret.</p>
        <HeaderFields
          prefix="authHeader"
          placeholder="X-Encore-Token"
          maxLength={{ name: 100, value: 4096 }}
          name={headerName}
          value={headerValue}
          onName={setHeaderName}
          onValue={setHeaderValue}
          errors={{ name: errorOf('authHeaderName'), value: errorOf('authHeaderValue') }}
          disabled={{ name: removeHeader, value: removeHeader }}
          stored={
            settings.authHeaderValueSet &&
            (settings.authHeaderValueHint ? `ends in ${settings.authHeaderValueHint.slice(1)}` : true)
          }
        />
        {(settings.authHeaderName || settings.authHeaderValueSet) && (
          <label className={styles.check}>
            <input type="checkbox" checked={removeHeader} onChange={(e) => setRemoveHeader(e.target.checked)} />
            Remove the auth header (name and stored value) on save
          </label>
        )}
      </fieldset>

      <FormActions submit="Save integration" pending={update.isPending} done={saved ? 'Saved.' : null} />
    </ActionForm>
  );
}

/* ---------- Feed ---------- */

function FailureAlert({ failure, title }: { failure: CallFailure; title: string }) {
  return (
    <Alert tone="error" title={title}>
      <p className={styles.error}>{failure.message}</p>
      {failure.details.length > 1 && (
        <ul className={styles.issues}>
          {failure.details.slice(0, 10).map((d, i) => (
            <li key={i}>{d.message}</li>
          ))}
          {failure.details.length > 10 && <li>… and {failure.details.length - 10} more</li>}
        </ul>
      )}
    </Alert>
  );
}

function FeedPanel({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A pull is recorded, whatever its outcome: refresh last run / error / next run. A fetch is only a check.
  const refresh = () =>
    queryClient.invalidateQueries({
      queryKey: trpc.partners.integration.get.queryKey({ partnerId: settings.partnerId }),
    });
  const run = useMutation(trpc.partners.integration.fetchFeedNow.mutationOptions());
  const pull = useMutation(trpc.partners.integration.pullFeedNow.mutationOptions({ onSettled: refresh }));
  const result = run.data;

  return (
    <Subsection title="Event feed">
      <DetailList>
        <Detail term="Last run">
          <Time value={settings.feedLastRunAt} fallback="Never" />
        </Detail>
        <Detail term="Result">
          {!settings.feedLastRunAt ? (
            <span className="muted">—</span>
          ) : settings.feedLastError ? (
            <Badge tone="danger">Failed</Badge>
          ) : (
            <Badge tone="success">OK</Badge>
          )}
        </Detail>
        <Detail term="Next run">
          <Time value={settings.feedNextRunAt} fallback={settings.feedUrl ? 'Not scheduled' : 'No feed URL'} />
        </Detail>
      </DetailList>
      {settings.feedLastError && (
        <div>
          <span className="field-label">Last error</span>
          <p className={`field-error ${styles.error}`}>{settings.feedLastError}</p>
        </div>
      )}
      <div className="form-actions">
        <Button
          onClick={() => run.mutate({ partnerId: settings.partnerId })}
          pending={run.isPending}
          pendingLabel="Reading feed…"
          disabled={!settings.feedUrl}
        >
          Fetch feed now
        </Button>
        <Button
          onClick={() => pull.mutate({ partnerId: settings.partnerId })}
          pending={pull.isPending}
          pendingLabel="Pulling feed…"
          disabled={!settings.feedUrl}
        >
          Pull now
        </Button>
        {!settings.feedUrl && <span className="muted">Save a feed URL first.</span>}
      </div>
      <ErrorAlert error={run.error} />
      {result?.ok === true && (
        <Alert tone="success" title={`Feed read and valid (${result.result.durationMs} ms)`}>
          {plural(result.result.events, 'event')}, {plural(result.result.shows, 'show')},{' '}
          {plural(result.result.ticketOptions, 'ticket option')}, {plural(result.result.priceTypes, 'price type')},{' '}
          {plural(result.result.combinations, 'combination')}. Nothing was imported yet.
        </Alert>
      )}
      {result?.ok === false && <FailureAlert failure={result.error} title="The feed could not be used" />}
      <ErrorAlert error={pull.error} />
      {pull.data?.ok === true && <PullResult result={pull.data.result} />}
      {pull.data?.ok === false && <FailureAlert failure={pull.data.error} title="The feed could not be pulled" />}
    </Subsection>
  );
}

/** What a "Pull now" applied: counts, and each event the catalogue refused with why. */
function PullResult({ result }: { result: Extract<Outputs['pullFeedNow'], { ok: true }>['result'] }) {
  const counts = `${plural(result.created, 'event')} created, ${result.updated} updated`;
  if (result.refused.length === 0) {
    return (
      <Alert tone="success" title={`Feed applied (${result.durationMs} ms)`}>
        {counts}.
      </Alert>
    );
  }
  return (
    <Alert tone="warning" title={`Feed applied, ${result.refused.length} of ${plural(result.events, 'event')} refused`}>
      <p>{counts}.</p>
      <ul className={styles.issues}>
        {result.refused.slice(0, 10).map((r) => (
          <li key={r.index}>
            [{r.index}] {r.externalReferenceId}: {r.message}
          </li>
        ))}
        {result.refused.length > 10 && <li>… and {result.refused.length - 10} more</li>}
      </ul>
    </Alert>
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/* ---------- Verification test ---------- */

function VerificationTest({ settings }: { settings: Settings }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState('');
  const test = useMutation(trpc.partners.integration.testVerification.mutationOptions());
  const emailError = fieldErrors(test.error).userEmail ?? null;
  const result = test.data;

  return (
    <Subsection title="Test ticket verification">
      <ActionForm
        className={styles.testForm}
        onSubmit={() => test.mutate({ partnerId: settings.partnerId, userEmail: email })}
      >
        <Field
          label="Fan’s e-mail"
          name="userEmail"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={emailError}
          hint="Asks the partner which tickets this person owns right now. Nothing is stored."
        />
        <Button
          type="submit"
          pending={test.isPending}
          pendingLabel="Asking partner…"
          disabled={!settings.verificationUrl}
        >
          Test verification
        </Button>
      </ActionForm>
      {!settings.verificationUrl && <p className="muted">Save a verification URL first.</p>}
      <ErrorAlert error={test.error} shownElsewhere={Boolean(emailError)} />
      {result?.ok === false && <FailureAlert failure={result.error} title="Verification failed" />}
      {result?.ok === true && (
        <>
          <Alert
            tone={result.result.tickets.length > 0 ? 'success' : 'info'}
            title={`${plural(result.result.tickets.length, 'valid ticket')} for ${result.result.userEmail} (${result.result.durationMs} ms)`}
          >
            {result.result.ineligible.length > 0
              ? `${plural(result.result.ineligible.length, 'other ticket')} cannot be used (see below).`
              : 'Field names mapped and the answer validated.'}
          </Alert>
          {result.result.tickets.length + result.result.ineligible.length > 0 && (
            <Table
              label={`Tickets of ${result.result.userEmail}`}
              columns={['Ticket', 'Event / show', 'Ticket option', { label: 'Price', num: true }, 'Tags', 'Status']}
            >
              {[
                ...result.result.tickets.map((ticket) => ({ ticket, reason: null as string | null })),
                ...result.result.ineligible,
              ].map(({ ticket, reason }, i) => (
                <tr key={`${ticket.ticketId}-${i}`}>
                  <td>
                    <code className="mono">{ticket.ticketId}</code>
                  </td>
                  <td>
                    {ticket.externalReferenceEventId}
                    {ticket.showId ? ` / ${ticket.showId}` : ''}
                  </td>
                  <td>{ticket.ticketOptionId}</td>
                  <td className={`num ${styles.nowrap}`}>
                    {ticket.price} {ticket.currency}
                  </td>
                  <td>{ticket.tags.length > 0 ? ticket.tags.join(', ') : <span className="muted">—</span>}</td>
                  <td>
                    {reason === null ? (
                      <Badge tone="success">Valid</Badge>
                    ) : (
                      <span>
                        <Badge tone="danger">Ineligible</Badge> <span className="muted">{reason}</span>
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </>
      )}
    </Subsection>
  );
}
