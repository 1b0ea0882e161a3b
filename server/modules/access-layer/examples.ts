/**
 * Worked example of the sell access layer, on the catalogue's and tickets' examples: Ana holds T-0002
 * and T-0003 (both listed through the selling flow) and T-0099 (never sent to Encore: `sync` false).
 * Answers: ./response-examples.json (server/http/examples.test.ts refreshes them).
 */
import { EXAMPLE_EVENT_ID, EXAMPLE_SHOW_ID } from '@/server/modules/catalog';
import responses from './response-examples.json';

const ana = 'ana.garcia@example.com';

export const sellAccessLayerExample = {
  query: { lang: 'en' },
  body: {
    user: ana,
    includeTicketSales: true,
    tickets: ['T-0002', 'T-0003', 'T-0099'].map((ticketId) => ({
      eventId: EXAMPLE_EVENT_ID,
      showId: EXAMPLE_SHOW_ID,
      ticketId,
      ticketOptionId: 'platea-a',
    })),
  },
  response: responses.sellAccessLayer,
};

export const buyAccessLayerExample = {
  query: { type: 'buy', eventId: EXAMPLE_EVENT_ID, showId: EXAMPLE_SHOW_ID, lang: 'es' },
  response: responses.buyAccessLayer,
};

export const bulkAccessLayerExample = {
  query: { type: 'buy', lang: 'en' },
  body: [{ eventId: EXAMPLE_EVENT_ID, showIds: [EXAMPLE_SHOW_ID, 'show-2027-05-02'] }],
  response: responses.bulkAccessLayer,
  note: 'A show Encore does not know answers `found: false` with no components.',
};

export const resaleEntryExample = {
  query: {
    token: 'ott_q7ZK3vYx0sN1pD8mRf2LhWc5TgB9uJeA4oQy6iXnVbEk3Rw9Tz2LmQ8vYc1Hx5JaG',
    autologin: 'true',
    lang: 'en',
  },
  response: responses.getResaleEntry,
  note: 'The token is one your server minted for the fan a moment ago (GET /v1/auth/oneTimeToken): it is read, not spent.',
};
