'use client';

import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { ActionForm } from '@/components/ui/action-form';
import { Alert, ErrorAlert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard, Subsection } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Table } from '@/components/ui/table';
import { Detail, DetailList } from '@/components/ui/details';
import { Time } from '@/components/ui/time';
import { useMay } from '@/components/dashboard/staff-role';
import { useTRPC } from '@/components/trpc/client';
import { fieldErrors } from '@/components/trpc/errors';
import type { AppRouter } from '@/server/trpc/router';
import styles from './integration-section.module.css';
import { SettingsForm } from './integration-settings-form';

type Outputs = inferRouterOutputs<AppRouter>['partners']['integration'];
type Settings = Outputs['get'];
type CallFailure = Extract<Outputs['fetchFeedNow'], { ok: false }>['error'];

/**
 * The partner's integration: where Encore verifies ticket ownership and reads the event feed, the
 * auth header both calls carry (write-only: only a hint of the stored value is shown), the feed's
 * last and next run, and two live tests against the partner's servers. Only an admin changes or tests them:
 * other roles read the settings.
 */
export function IntegrationSection({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const { data: settings } = useSuspenseQuery(trpc.partners.integration.get.queryOptions({ partnerId }));
  const admin = useMay('admin');

  return (
    <SectionCard
      data-testid="integration"
      title="Integration"
      description="How Encore calls this partner's servers: ticket verification (asked fresh whenever a fan sells or buys) and the event feed."
    >
      <div className="card-body">
        {admin ? <SettingsForm settings={settings} /> : <SettingsSummary settings={settings} />}
      </div>
      <div className="card-body">
        <FeedPanel settings={settings} />
      </div>
      {admin && (
        <div className="card-body">
          <VerificationTest settings={settings} />
        </div>
      )}
    </SectionCard>
  );
}

/** The stored settings as text, for a role that may not change them (the header's value stays secret). */
function SettingsSummary({ settings }: { settings: Settings }) {
  const fieldMap = Object.entries(settings.verificationFieldMap);
  const none = <span className="muted">None</span>;
  return (
    <DetailList>
      <Detail term="Verification URL">
        {settings.verificationUrl ? <code className="mono">{settings.verificationUrl}</code> : none}
      </Detail>
      <Detail term="Field names">
        {fieldMap.length === 0
          ? none
          : fieldMap.map(([from, to]) => (
              <div key={from}>
                <code className="mono">{from}</code> → <code className="mono">{to}</code>
              </div>
            ))}
      </Detail>
      <Detail term="Feed URL">{settings.feedUrl ? <code className="mono">{settings.feedUrl}</code> : none}</Detail>
      <Detail term="Read every">{plural(settings.feedIntervalMinutes, 'minute')}</Detail>
      <Detail term="Auth header">
        {settings.authHeaderName ? <code className="mono">{settings.authHeaderName}</code> : none}
        {settings.authHeaderValueSet && (
          <span className="muted">
            {' '}
            (value set{settings.authHeaderValueHint ? `, ends in ${settings.authHeaderValueHint.slice(1)}` : ''})
          </span>
        )}
      </Detail>
    </DetailList>
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
  const admin = useMay('admin');

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
      {admin && (
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
      )}
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
  const test = useMutation(trpc.partners.integration.testVerification.mutationOptions());
  const emailError = fieldErrors(test.error).userEmail ?? null;
  const result = test.data;

  return (
    <Subsection title="Test ticket verification">
      <ActionForm
        className={styles.testForm}
        onSubmit={(values) => test.mutate({ partnerId: settings.partnerId, userEmail: values.text('userEmail') })}
      >
        <Field
          label="Fan’s e-mail"
          name="userEmail"
          type="email"
          autoComplete="off"
          required
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
