import type { Metadata } from 'next';
import { SectionCard } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { EmptyState } from '@/components/ui/empty-state';
import { formatInVenue, formatUtc } from '@/components/ui/time';
import { publicBaseUrl } from '@/server/env';
import { trpc } from '@/server/trpc/server';
import { WidgetPreview } from '../../_features/embed/widget-preview';
import { loadPartnerPage, PartnerPageHeader, type PartnerPageProps } from '../../_shared/partner-page';
import { embedPath } from '../../_shared/paths';
import { escapeHtml } from '@/server/lib/escape-html';

export const metadata: Metadata = { title: 'Embed' };

const LAYOUTS = ['button', 'banner', 'list', 'map'] as const;
const LANGUAGES = {
  es: 'Spanish',
  en: 'English',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese (Portugal)',
  nl: 'Dutch',
} as const;
const MODES = { tab: 'A new tab', dialog: 'A dialog in the page' } as const;

const pick = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  allowed.includes(value as T) ? (value as T) : fallback;

/**
 * How a partner embeds the widget. Staff pick an event, a show, a language, a layout and how it
 * opens (a plain GET form: the choice is in the address, and it works before any script); the page shows
 * the two snippets with copy buttons and the widget itself, live.
 */
export default async function EmbedPage({ params, searchParams }: PartnerPageProps) {
  const { partnerId } = await params;
  const query = await searchParams;
  const { queryClient, partner } = await loadPartnerPage(partnerId, embedPath(partnerId), {});
  const [events, key] = await Promise.all([
    queryClient.fetchQuery(trpc.catalog.events.queryOptions({ partnerId, pageSize: 100 })),
    queryClient.fetchQuery(trpc.partners.publishableKeys.get.queryOptions({ partnerId })),
  ]);
  const event = events.items.find((e) => e.id === query.event) ?? events.items.find((e) => !e.cancelledAt);
  const detail = event
    ? await queryClient.fetchQuery(trpc.catalog.event.queryOptions({ partnerId, eventId: event.id }))
    : null;
  const shows = detail?.shows ?? [];
  const show = showToEmbed(shows, query.show);
  const lang = pick(query.lang, Object.keys(LANGUAGES) as (keyof typeof LANGUAGES)[], 'es');
  const layout = pick(query.layout, LAYOUTS, 'button');
  const mode = pick(query.mode, Object.keys(MODES) as (keyof typeof MODES)[], 'tab');
  const attributes: Record<string, string> | null =
    key && event && show
      ? {
          'publishable-key': key.key,
          event: event.externalReferenceId,
          show: show.showId,
          lang,
          ...(layout === 'button' ? {} : { layout }),
          ...(mode === 'dialog' ? { mode } : {}),
        }
      : null;
  const script = `<script src="${publicBaseUrl()}/widget/v1.js" async></script>`;
  const element = attributes
    ? `<encore-resale ${Object.entries(attributes)
        .map(([name, value]) => `${name}="${escapeHtml(value)}"`)
        .join(' ')}></encore-resale>`
    : '';

  const sellElement = key
    ? `<encore-sell publishable-key="${escapeHtml(key.key)}" token="ott_…" lang="${lang}"></encore-sell>`
    : '';

  return (
    <>
      <PartnerPageHeader
        partner={partner}
        title="Embed"
        description={
          <>
            The resale widget on <strong>{partner.name}</strong>&apos;s own pages: two snippets, a script once per page
            and an element wherever fans should meet the resale market.
          </>
        }
        links={['events']}
      />
      {!event || !show ? (
        <EmptyState
          title="No show to embed yet"
          description="The widget shows one show of an event: this partner has sent none yet (POST /v1/events)."
        />
      ) : (
        <>
          <SectionCard title="What to show">
            <form method="get" className="embed-form" aria-label="What to show">
              <Choice
                label="Event"
                name="event"
                value={event.id}
                options={events.items.map((e) => [e.id, `${e.title} (${e.externalReferenceId})`])}
              />
              <Choice
                label="Show"
                name="show"
                value={show.showId}
                // Each show at the venue's time (its time zone, else the offset it was sent with), as fans read it.
                options={shows.map((s) => [
                  s.showId,
                  `${s.showId} · ${formatInVenue(s.startsAt, s.timeZone, s.sentAs) ?? formatUtc(s.startsAt)}${s.cancelledAt ? ' (cancelled)' : ''}`,
                ])}
              />
              <Choice label="Language" name="lang" value={lang} options={Object.entries(LANGUAGES)} />
              <Choice
                label="Layout"
                name="layout"
                value={layout}
                options={LAYOUTS.map((l) => [l, l[0].toUpperCase() + l.slice(1)])}
              />
              <Choice label="Opens the buy page in" name="mode" value={mode} options={Object.entries(MODES)} />
              <button type="submit" className="btn btn-primary">
                Show
              </button>
            </form>
            {!key ? <p role="alert">This partner has no publishable key: rotate one on its page.</p> : null}
          </SectionCard>
          <SectionCard
            title="The snippets"
            description="The script once per page (anywhere; async), the element wherever the widget goes. The page's Content Security Policy must allow this origin for scripts and connections."
          >
            <div className="embed-snippet">
              <pre data-testid="snippet-script">
                <code>{script}</code>
              </pre>
              <CopyButton value={script} what="the script snippet" />
            </div>
            {element ? (
              <div className="embed-snippet">
                <pre data-testid="snippet-element">
                  <code>{element}</code>
                </pre>
                <CopyButton value={element} what="the element snippet" />
              </div>
            ) : null}
            {sellElement ? (
              <>
                <p className="embed-note">
                  On the fan&apos;s account page, their tickets to sell: the partner&apos;s server mints the fan&apos;s
                  one-time token (<code>GET /v1/auth/oneTimeToken</code>) for each page it serves.
                </p>
                <div className="embed-snippet">
                  <pre data-testid="snippet-sell">
                    <code>{sellElement}</code>
                  </pre>
                  <CopyButton value={sellElement} what="the sell element snippet" />
                </div>
              </>
            ) : null}
          </SectionCard>
          {attributes ? (
            <SectionCard
              title="Live"
              description="The widget as fans see it on the partner's page (it shows nothing while the show is off resale: the browser's console says why)."
            >
              <WidgetPreview attributes={attributes} />
            </SectionCard>
          ) : null}
        </>
      )}
    </>
  );
}

/** The show asked for, else the next one to start (not cancelled), else the last: the one a partner embeds now. */
function showToEmbed<S extends { showId: string; startsAt: Date; cancelledAt: Date | null }>(
  shows: S[],
  asked: unknown,
): S | undefined {
  const now = Date.now();
  return (
    shows.find((s) => s.showId === asked) ??
    shows
      .filter((s) => !s.cancelledAt && s.startsAt.getTime() > now)
      .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime())[0] ??
    shows.at(-1)
  );
}

/** One choice of the form: a labelled select of `[value, label]` options. */
function Choice({
  label,
  name,
  value,
  options,
}: {
  label: string;
  name: string;
  value: string;
  options: [string, string][];
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <select className="input" name={name} defaultValue={value}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
