/**
 * Worked request examples of the catalogue operations, in the spec's integration order. They are pasted
 * into the OpenAPI document and /docs, and server/http/examples.test.ts sends them to the real handlers,
 * so they must keep working as written. Answers come from ./response-examples.json.
 */
import responses from './response-examples.json';

export const EXAMPLE_EVENT_ID = 'evt-2026-0042';
export const EXAMPLE_SHOW_ID = 'show-2027-05-01';

const show = {
  title: 'Los Andes en vivo',
  date: '2027-05-01T21:00:00-03:00',
  showId: EXAMPLE_SHOW_ID,
  primarySalesUrl: 'https://tickets.example.com/los-andes/2027-05-01',
  images: [{ kind: 'main', url: 'https://tickets.example.com/img/los-andes.jpg' }],
  configuration: {},
  ticketOptions: [
    { title: 'Campo', ticketId: 'campo', description: 'General admission, standing', currency: 'ARS', price: 55000 },
    { title: 'Platea A', ticketId: 'platea-a', description: 'Seated, lower tier', currency: 'ARS', price: 80000 },
  ],
  priceTypes: [
    { priceTypeId: 'general', title: 'General' },
    { priceTypeId: 'student', title: 'Student (ID at the door)' },
  ],
};

export const createEventExample = {
  body: {
    title: 'Los Andes — Gira 2027',
    description: '<p>The farewell tour.</p>',
    externalReferenceId: EXAMPLE_EVENT_ID,
    location: {
      venueName: 'Estadio Obras',
      address: 'Av. del Libertador 7395',
      city: 'Buenos Aires',
      state: 'CABA',
      country: 'AR',
      postalCode: 'C1429',
      timeZone: 'America/Argentina/Buenos_Aires',
    },
    producers: [{ producerId: 'prod-7', name: 'Andes Producciones', emails: ['ops@andes.example.com'] }],
    configuration: {},
    primarySalesFee: { type: 'PERCENTAGE', value: 10 },
    // The seat map: each section an element whose `data-section` (or `id`) is the tickets' `seating.section`.
    seating: {
      svgCode:
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200">' +
        '<rect data-section="Campo" data-label="Campo" x="100" y="10" width="200" height="80" fill="#dfe8f5"/>' +
        '<rect data-section="Platea A" data-label="Platea A" x="60" y="110" width="280" height="80" fill="#f5e6d8">' +
        '<title>Platea A</title></rect></svg>',
    },
    shows: [show],
  },
  response: responses.createEvent,
};

export const updateEventExample = {
  body: {
    externalReferenceId: EXAMPLE_EVENT_ID,
    title: 'Los Andes — Gira 2027 (new date added)',
    shows: [
      { showId: EXAMPLE_SHOW_ID, ticketOptions: [{ ...show.ticketOptions[0], price: 60000 }] },
      { ...show, showId: 'show-2027-05-02', date: '2027-05-02T21:00:00-03:00' },
    ],
  },
  response: responses.updateEvent,
};

export const applyRulesExample = {
  body: [
    // Price Detail: every ticketOption + priceType pair sold is declared (never generated).
    ...(
      [
        ['campo', 'general', 55000],
        ['platea-a', 'general', 80000],
        ['platea-a', 'student', 64000],
      ] as const
    ).map(([ticketOptionId, priceTypeId, price]) => ({
      externalReferenceEventId: EXAMPLE_EVENT_ID,
      showId: EXAMPLE_SHOW_ID,
      ticketOptionId,
      priceTypeId,
      ruleType: 'COMBINATION',
      price,
    })),
    {
      externalReferenceEventId: EXAMPLE_EVENT_ID,
      ruleType: 'PRICE_LIMITS',
      rules: { minPercentOfFace: 50, maxPercentOfFace: 120 },
    },
    {
      externalReferenceEventId: EXAMPLE_EVENT_ID,
      showId: EXAMPLE_SHOW_ID,
      ruleType: 'LISTING_WINDOW',
      rules: { closesHoursBeforeShow: 2 },
    },
  ],
  response: responses.applyRules,
};

export const cancelEventExample = {
  params: { externalReferenceId: EXAMPLE_EVENT_ID },
  query: { showId: 'show-2027-05-02' },
  response: responses.cancelEvent,
};
