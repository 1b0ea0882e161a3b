import { z } from 'zod';
import { LOCALES } from './lib/i18n/locale-codes';

/**
 * Every environment variable Encore reads, validated once. docs/configuration.md's table mirrors this list.
 * Read through `env()` so a bad value fails at start-up with a readable message, not mid-request.
 */
const boolish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    /** Absolute base URL the product is reached at; used in every URL we hand to partners and fans. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** A PostgreSQL server to use. Without it, an embedded PostgreSQL runs under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    DATA_DIR: z.string().min(1).default('./.data'),
    /** Port of the embedded PostgreSQL; default picks a free one from 54329 up. */
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
    /** Connections per app instance to PostgreSQL. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    NEXTAUTH_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    NEXTAUTH_URL: z.url().optional(),
    ADMIN_EMAIL: z.email().optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    /** Create (and print once) a demo partner on first start with an empty database. */
    DEMO_PARTNER: boolish.default(true),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    /** Inngest (production jobs). Any of these switches background work from the local provider to Inngest. */
    INNGEST_EVENT_KEY: z.string().min(1).optional(),
    INNGEST_SIGNING_KEY: z.string().min(1).optional(),
    INNGEST_DEV: z.string().min(1).optional(),
    /** A self-hosted Inngest server (read by the Inngest SDK itself; validated here so a typo stops the start). */
    INNGEST_BASE_URL: z.url().optional(),
    /** Local provider: whether this instance works jobs (false: it only enqueues them). */
    JOBS_WORKER: boolish.default(true),
    /**
     * Local provider only: whether the timed sweeps (the jobs with a cron) run. `false` removes their
     * schedules; the e2e server runs so, its tests being about what a request does, never about a sweep
     * that may or may not have come first.
     */
    JOBS_SCHEDULES: boolish.default(true),
    /**
     * How many proxies of ours stand in front of Encore, each appending to X-Forwarded-For. 0 (the
     * default): the client is the socket's peer and X-Forwarded-For is ignored, since a client writes it.
     */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * A shared HTTP cache stands in front (the reference edge, edge/nginx.conf, or a CDN): anonymous fans'
     * buy pages are then kept there only, not in this process as well (two caches one behind the other
     * would each add their window to how long a sold offer shows; docs/operations.md "Running at scale").
     */
    EDGE_CACHE: boolish.default(false),
    /** Allow partner URLs on private, loopback and link-local addresses (development and tests only). */
    ALLOW_PRIVATE_PARTNER_URLS: boolish.default(false),
    /**
     * Calls a minute one client address may make with one publishable key (`pk_…`, the widget's) from one
     * origin, and all addresses together (`…_SITE_…`), counted in each instance's memory
     * (server/http/publishable.ts).
     */
    PUBLISHABLE_KEY_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(600),
    PUBLISHABLE_KEY_SITE_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(60_000),
    /** Lifetime of a one-time sign-in token (`GET /v1/auth/oneTimeToken`), in seconds: 15 minutes by default. */
    ONE_TIME_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
    /** Lifetime of a fan session opened by a one-time token, in seconds: 7 days by default. */
    FAN_SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 86_400)
      .default(7 * 86_400),
    /** How long a buy intention holds its listings while the buyer pays (minutes). */
    BUY_INTENTION_MINUTES: z.coerce.number().int().min(1).max(120).default(10),
    /** How long a channel has to hand over the tickets of a sale (hours; never later than the show's start). */
    CHANNEL_FULFILMENT_HOURS: z.coerce.number().int().min(1).max(168).default(24),
    /** Largest accepted request body on the partner API, in bytes. */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(16 * 1024 * 1024),
    /** Who takes payments and pays sellers out: the embedded sandbox (a test checkout page in Encore) or Stripe. */
    PAYMENTS_PROVIDER: z.enum(['sandbox', 'stripe']).default('sandbox'),
    /** Stripe's secret API key (`sk_test_…` / `sk_live_…`, or a restricted key); required with PAYMENTS_PROVIDER=stripe. */
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    /** The signing secret (`whsec_…`) of the Stripe webhook endpoint `/api/payments/stripe/webhook`; required with Stripe. */
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    /** A Stripe-compatible API server to call instead of api.stripe.com (tests, proxies), e.g. `http://127.0.0.1:12111`. */
    STRIPE_API_BASE: z.url().optional(),
    /**
     * Language of fan pages and mails when neither the URL (`lang`), the remembered choice, the browser nor the
     * event's country names a supported one.
     */
    DEFAULT_LANG: z.enum(LOCALES).default('en'),
    /** Where mail goes (`smtp://user:pass@host:587`, `smtps://…`). Unset: mails are stored and shown in the staff mailbox. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The sender of every mail. */
    MAIL_FROM: z.string().min(3).default('Encore <no-reply@encore.local>'),
    /** Encore's own support address, given to fans wherever their partner set no support contact. */
    SUPPORT_EMAIL: z.email('must be an e-mail address').default('support@encore.local'),
    /**
     * Opens `GET /metrics` (Prometheus text format) to callers that send `Authorization: Bearer <it>`.
     * Unset: the endpoint answers 404, as an unknown path does.
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * Tests only: opens the set-up calls `POST /api/test-hooks/*` to callers that send this value in
     * `X-Test-Hooks-Secret` (the Playwright server gets a random one per run). Unset: they are a 404.
     */
    TEST_HOOKS_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  })
  .superRefine((e, ctx) => {
    if (e.PAYMENTS_PROVIDER !== 'stripe') return;
    for (const key of ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'] as const) {
      if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required with PAYMENTS_PROVIDER=stripe' });
    }
  });

export type Env = z.infer<typeof schema>;

/** The names of every variable above (docs/configuration.md's table is tested against this list). */
export const envVariableNames: readonly string[] = Object.keys(schema.shape);

let cached: Env | undefined;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = source[key];
    // An empty variable counts as unset, as shells and .env files often leave them.
    if (value !== undefined && value !== '') input[key] = value;
  }
  const result = schema.safeParse(input);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

/** Forget the parsed environment (tests and the boot sequence change process.env). */
export function resetEnvCache(): void {
  cached = undefined;
}

export function publicBaseUrl(): string {
  const e = env();
  return (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
}
