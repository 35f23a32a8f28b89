import * as v from 'valibot';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { APPS } from './contract/apps';

const port = v.pipe(
  v.optional(v.string(), '3000'),
  v.regex(/^\d{1,5}$/, 'must be a port number'),
  v.transform(Number),
  v.minValue(1, 'must be a port number'),
  v.maxValue(65535, 'must be a port number'),
);
const url = (what: string) => v.pipe(v.string(), v.url(`must be a URL (${what})`));
const secret = v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters')));

/** Webex identity brokers that sign embedded-app user tokens; `*` stands for one host label. */
export const DEFAULT_WEBEX_ISSUERS = 'https://idbroker.webex.com/idb,https://idbroker-*.webex.com/idb';

const EnvSchema = v.object({
  NODE_ENV: v.optional(
    v.picklist(['development', 'production', 'test'], 'must be development, production or test'),
    'development',
  ),
  PORT: port,
  HOST: v.optional(v.string()),
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
  // Sessions (migrations, LISTEN) go here when DATABASE_URL is a transaction pooler.
  DIRECT_DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
  DATABASE_POOLER: v.optional(v.picklist(['none', 'transaction'], 'must be none or transaction'), 'none'),
  DATABASE_CONNECT_TIMEOUT_MS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of milliseconds'),
      v.transform(Number),
      v.minValue(100),
      v.maxValue(120_000),
    ),
    '5000',
  ),
  DATABASE_DEADLINE_MS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of milliseconds'),
      v.transform(Number),
      v.minValue(100),
      v.maxValue(600_000),
    ),
    '10000',
  ),
  DATA_DIR: v.optional(v.string(), './data'),
  SESSION_SECRET: secret,
  ENCRYPTION_KEY: secret,
  PROVIDER_EMAIL_DOMAIN: v.optional(v.pipe(v.string(), v.toLowerCase(), v.regex(/^[a-z0-9.-]*$/, 'must be a domain name'))),
  PUBLIC_URL: v.optional(url('e.g. https://console.example.com')),
  // the provider's terms of service, linked from sign-up; unset means the built-in page at /terms
  TERMS_URL: v.optional(url('e.g. https://example.com/terms')),
  SESSION_HOURS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number of hours'), v.transform(Number), v.minValue(1), v.maxValue(168)),
    '12',
  ),
  INVITATION_DAYS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number of days'), v.transform(Number), v.minValue(1), v.maxValue(90)),
    '7',
  ),
  // how long the link to a signer's copy of a signed document works
  SIGNER_COPY_DAYS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number of days'), v.transform(Number), v.minValue(1), v.maxValue(365)),
    '30',
  ),
  CNAME_TARGET: v.optional(v.string(), 'custom.switchboard.example'),
  DNS_SERVERS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[\w.:[\]]+(\s*,\s*[\w.:[\]]+)*$/, 'must be a comma-separated list of DNS server addresses (ip or ip:port)'),
    ),
  ),
  AUTO_SEED: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  GOOGLE_ISSUER: v.optional(url('the Google-type provider issuer, e.g. https://accounts.google.com')),
  GOOGLE_CLIENT_ID: v.optional(v.string()),
  GOOGLE_CLIENT_SECRET: v.optional(v.string()),
  AZURE_ISSUER: v.optional(url('the Microsoft-type provider issuer, e.g. https://login.microsoftonline.com/common/v2.0')),
  AZURE_CLIENT_ID: v.optional(v.string()),
  AZURE_CLIENT_SECRET: v.optional(v.string()),
  DEV_IDP: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  DEV_STRIPE: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  DEV_STRIPE_PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a port number'),
      v.transform(Number),
      v.minValue(1, 'must be a port number'),
      v.maxValue(65535, 'must be a port number'),
    ),
  ),
  TRUST_PROXY: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  TRUST_PROXY_HOPS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of proxies'),
      v.transform(Number),
      v.minValue(1, 'must be at least 1'),
      v.maxValue(10, 'must be at most 10'),
    ),
  ),
  OUTBOUND_ALLOW_HOSTS: v.optional(v.string()),
  OUTBOUND_CA_FILE: v.optional(v.string()),
  TWILIO_API_URL: v.optional(url('e.g. https://api.twilio.com'), 'https://api.twilio.com'),
  DATADOG_INTAKE_URL: v.optional(url('e.g. https://http-intake.logs.datadoghq.com')),
  CLOUDWATCH_ENDPOINT: v.optional(url('e.g. https://logs.us-east-1.amazonaws.com')),
  LOG_SHIPPING: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  // How long a worker holds leased jobs before another process may retry them (a crashed worker's jobs wait this long).
  // How long a graceful stop (SIGTERM) waits for requests in flight before closing them.
  WORKERS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of processes'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(64),
    ),
    '1',
  ),
  SHUTDOWN_GRACE_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of seconds'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(600),
    ),
    '10',
  ),
  // Caps on open live streams per process (api/live/hub.ts): past them /api/live answers 429 TOO_MANY_STREAMS.
  LIVE_STREAMS_PER_SESSION: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of streams'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(10_000),
    ),
    '20',
  ),
  LIVE_STREAMS_PER_ACCOUNT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of streams'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(1_000_000),
    ),
    '1000',
  ),
  // Readiness and operations (docs/operations.md): how long /api/ready answers 503 after SIGTERM
  // before the listener closes (longer than a balancer's check interval × its fall count).
  READY_DRAIN_SECONDS: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number of seconds'), v.transform(Number), v.maxValue(300)),
  ),
  // Prometheus metrics on a port of their own, never the public one; off when unset.
  METRICS_PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'must be a port number'),
      v.transform(Number),
      v.minValue(1, 'must be a port number'),
      v.maxValue(65535, 'must be a port number'),
    ),
  ),
  METRICS_HOST: v.optional(v.string(), '127.0.0.1'),
  // OpenTelemetry traces over OTLP/HTTP when set; new traces sampled at this ratio (parent-based).
  OTEL_EXPORTER_OTLP_ENDPOINT: v.optional(url('e.g. http://127.0.0.1:4318')),
  OTEL_TRACES_SAMPLER_ARG: v.optional(
    v.pipe(v.string(), v.regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a ratio from 0 to 1'), v.transform(Number)),
    '0.1',
  ),
  OTEL_SERVICE_NAME: v.optional(v.string(), 'switchboard'),
  // One JSON line per request and per job run at info; warn or silent quiets them.
  LOG_LEVEL: v.optional(
    v.picklist(['debug', 'info', 'warn', 'error', 'silent'], 'must be debug, info, warn, error or silent'),
    'info',
  ),
  JOB_LEASE_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of seconds'),
      v.transform(Number),
      v.minValue(1),
      v.maxValue(3600),
    ),
    '60',
  ),
  // How often each process looks for due periodic jobs (milliseconds); the lease runs each once.
  JOB_POLL_MS: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number of milliseconds'),
      v.transform(Number),
      v.minValue(100),
      v.maxValue(3_600_000),
    ),
    '30000',
  ),
  // Embedded hosts (see hosts/zoom and hosts/webex). Unset means that host's sign-in answers
  // 503 *_NOT_CONFIGURED; the URLs default to the real services and are overridden in tests.
  ZOOM_CLIENT_ID: v.optional(v.string()),
  ZOOM_CLIENT_SECRET: v.optional(v.string()),
  ZOOM_ACCOUNT_ID: v.optional(v.string()),
  ZOOM_API_CLIENT_ID: v.optional(v.string()),
  ZOOM_API_CLIENT_SECRET: v.optional(v.string()),
  ZOOM_API_URL: v.optional(url('e.g. https://api.zoom.us/v2'), 'https://api.zoom.us/v2'),
  ZOOM_OAUTH_URL: v.optional(url('e.g. https://zoom.us/oauth/token'), 'https://zoom.us/oauth/token'),
  WEBEX_APP_ID: v.optional(v.string()),
  WEBEX_ALLOWED_ISSUERS: v.optional(v.string(), DEFAULT_WEBEX_ISSUERS),
});

/** OUTBOUND_ALLOW_HOSTS: "localhost, 127.0.0.1:4000" -> entries as host or host:port. */
export function parseAllowHosts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

export type Env = v.InferOutput<typeof EnvSchema>;

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * A direct PostgreSQL connection for what needs a session of its own (migrations, LISTEN):
   * DIRECT_DATABASE_URL, else DATABASE_URL.
   */
  directDatabaseUrl: string | undefined;
  database: DatabaseSettings;
  dataDir: string;
  sessionSecret: string;
  encryptionKey: string;
  providerEmailDomain: string;
  publicUrl: string;
  sessionHours: number;
  invitationDays: number;
  /** days the link to a signer's copy of a signed document works (SIGNER_COPY_DAYS) */
  signerCopyDays: number;
  cnameTarget: string;
  /** DNS servers for custom-domain checks ('ip' or 'ip:port'); empty means the system's */
  dnsServers: string[];
  autoSeed: boolean;
  /** the Google-type and Microsoft-type sign-in providers; null when not configured */
  signIn: { google: OidcClientSettings | null; azure: OidcClientSettings | null };
  /** mount the bundled development identity provider at /dev-idp (never in production) */
  devIdp: boolean;
  /**
   * the development Stripe stand-in (api/dev-stripe): a loopback Stripe this process starts
   * when no Stripe is configured, so billing and Payments work on a fresh machine; never in
   * production. Its STRIPE_* settings are in `raw`, where the Stripe areas read theirs.
   */
  devStripe: DevStripeSettings | null;
  /** take the client address from X-Forwarded-For (behind a trusted load balancer only) */
  trustProxy: boolean;
  /**
   * how many proxies of ours append to X-Forwarded-For: the client is that many entries from
   * the right (entries further left are whatever the client wrote); 0 when trustProxy is off
   */
  trustProxyHops: number;
  /** outbound calls: hosts admitted over http and on private addresses (tests, development) */
  outboundAllowHosts: string[];
  /** extra certificates (PEM) trusted for outbound https, e.g. a development CA */
  outboundCa: string | undefined;
  /** Twilio REST base URL (a loopback peer in tests) */
  twilioApiUrl: string;
  /** overrides the Datadog logs intake chosen by site (tests) */
  datadogIntakeUrl: string | undefined;
  /** overrides the CloudWatch Logs endpoint chosen by region (tests, LocalStack) */
  cloudwatchEndpoint: string | undefined;
  /** run the log shipping worker in this process */
  logShipping: boolean;
  jobLeaseSeconds: number;
  /** how often each process looks for due periodic jobs */
  jobPollMs: number;
  shutdownGraceSeconds: number;
  /** seconds /api/ready answers 503 after SIGTERM before the listener closes */
  readyDrainSeconds: number;
  /** the metrics listener (GET /metrics): null when METRICS_PORT is unset */
  metrics: { port: number; host: string } | null;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** OpenTelemetry export: null when OTEL_EXPORTER_OTLP_ENDPOINT is unset */
  tracing: { endpoint: string; ratio: number; serviceName: string } | null;
  /** server processes sharing the port (node:cluster); above 1 only on PostgreSQL */
  workers: number;
  /** caps on open live streams on one process */
  liveStreams: { perSession: number; perAccount: number };
  /** the Zoom App (its secret decrypts the app context) and the Zoom REST API client */
  zoom: ZoomConfig;
  /** the Webex embedded app: our app id is the `aud` of its user tokens */
  webex: WebexConfig;
  /** everything else from the environment, for areas that read their own settings */
  raw: Record<string, string | undefined>;
};

/** How the server reaches PostgreSQL (api/db/index.ts). */
export type DatabaseSettings = {
  /** 'transaction': DATABASE_URL is a transaction pooler (PgBouncer), so no named prepared statements */
  pooler: 'none' | 'transaction';
  /** how long opening a connection may take before it counts as unreachable */
  connectTimeoutMs: number;
  /** how long a statement (a pipeline) may go unanswered before its connection is given up */
  deadlineMs: number;
};

export const DEFAULT_DATABASE_SETTINGS: DatabaseSettings = { pooler: 'none', connectTimeoutMs: 5_000, deadlineMs: 10_000 };

/** An OpenID Connect client: the provider's issuer (or discovery document URL) and our credentials. */
export type OidcClientSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** an issuer an account admin typed in (SSO): reached only through the outbound safety rules */
  customerSupplied?: boolean;
};
export type ZoomConfig = {
  clientId: string;
  clientSecret: string;
  /** server-to-server OAuth app (account credentials grant) used to read the user's e-mail */
  accountId: string;
  apiClientId: string;
  apiClientSecret: string;
  apiUrl: string;
  oauthUrl: string;
};

export type WebexConfig = {
  appId: string;
  /** issuer URL patterns, e.g. https://idbroker-*.webex.com/idb */
  allowedIssuers: string[];
};

export class ConfigError extends Error {}

export const DEV_IDP_PATH = '/dev-idp';

/** Client credentials the development provider registers; derived so they survive restarts. */
export function devIdpClient(sessionSecret: string, publicUrl: string, name: 'google' | 'azure' | 'sso'): OidcClientSettings {
  return {
    issuer: `${publicUrl}${DEV_IDP_PATH}`,
    clientId: `switchboard-${name}`,
    clientSecret: crypto.createHash('sha256').update(`dev-idp:${name}:${sessionSecret}`).digest('base64url'),
  };
}

function signInProvider(name: 'GOOGLE' | 'AZURE', e: Env, defaultIssuer: string): OidcClientSettings | null {
  const clientId = e[`${name}_CLIENT_ID`];
  if (!clientId) return null;
  const clientSecret = e[`${name}_CLIENT_SECRET`];
  if (!clientSecret) throw new ConfigError(`Configuration error:\n  ${name}_CLIENT_SECRET must be set with ${name}_CLIENT_ID`);
  return { issuer: e[`${name}_ISSUER`] ?? defaultIssuer, clientId, clientSecret };
}

/** Reads a generated secret from DATA_DIR, creating it on first start (development only). */
function keptSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const value = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, value + '\n', { mode: 0o600 });
  return value;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = v.safeParse(EnvSchema, input);
  if (!parsed.success) {
    const lines = parsed.issues.map((issue) => {
      const key = issue.path?.map((p) => String(p.key)).join('.') ?? '?';
      return `  ${key} ${issue.message} (got ${JSON.stringify(input[key])})`;
    });
    throw new ConfigError(`Configuration error:\n${lines.join('\n')}`);
  }
  const e = parsed.output;
  const production = e.NODE_ENV === 'production';
  if (production) {
    const missing = (['SESSION_SECRET', 'ENCRYPTION_KEY', 'PUBLIC_URL', 'DATABASE_URL'] as const).filter((k) => !e[k]);
    if (missing.length) throw new ConfigError(`Configuration error:\n  ${missing.join(', ')} must be set in production`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const google = signInProvider('GOOGLE', e, 'https://accounts.google.com');
  const azure = signInProvider('AZURE', e, 'https://login.microsoftonline.com/common/v2.0');
  const devIdp = e.DEV_IDP ? e.DEV_IDP === 'true' : !production && !google && !azure;
  if (production && devIdp)
    throw new ConfigError('Configuration error:\n  DEV_IDP the development identity provider is never mounted in production');
  if (e.WORKERS > 1 && !e.DATABASE_URL)
    throw new ConfigError(
      'Configuration error:\n  WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process',
    );
  if (e.WORKERS > 1 && devIdp)
    throw new ConfigError(
      'Configuration error:\n  WORKERS above 1 needs DEV_IDP=false: the development identity provider keeps its sign-in state in one process',
    );
  const sessionSecret = e.SESSION_SECRET ?? keptSecret(dataDir, 'session-secret');
  // Stripe set up for real (billing or Connect) means no stand-in; unset, development gets one
  const realStripe = ['STRIPE_SECRET_KEY', 'STRIPE_CONNECT_CLIENT_ID', 'STRIPE_API_BASE'].filter((k) => input[k]);
  const wantsDevStripe = e.DEV_STRIPE ? e.DEV_STRIPE === 'true' : !production && realStripe.length === 0 && e.WORKERS === 1;
  if (production && wantsDevStripe)
    throw new ConfigError('Configuration error:\n  DEV_STRIPE the development Stripe stand-in is never used in production');
  if (wantsDevStripe && realStripe.length)
    throw new ConfigError(
      `Configuration error:\n  DEV_STRIPE=true cannot be combined with ${realStripe.join(', ')}: the stand-in is Stripe for a machine that has none`,
    );
  if (wantsDevStripe && e.WORKERS > 1)
    throw new ConfigError(
      'Configuration error:\n  WORKERS above 1 needs DEV_STRIPE=false: the development Stripe stand-in keeps its state in one process',
    );
  const devStripe = wantsDevStripe ? devStripeSettings(sessionSecret, e.DEV_STRIPE_PORT ?? Math.min(65535, e.PORT + 1)) : null;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const trustProxy = e.TRUST_PROXY === 'true';
  if (e.TRUST_PROXY_HOPS !== undefined && !trustProxy) {
    throw new ConfigError(
      `Configuration error:\n  TRUST_PROXY_HOPS is only read with TRUST_PROXY=true (got ${JSON.stringify(String(e.TRUST_PROXY_HOPS))})`,
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST ?? (production ? '0.0.0.0' : '127.0.0.1'),
    databaseUrl: e.DATABASE_URL,
    directDatabaseUrl: e.DIRECT_DATABASE_URL ?? e.DATABASE_URL,
    database: { pooler: e.DATABASE_POOLER, connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS, deadlineMs: e.DATABASE_DEADLINE_MS },
    dataDir,
    sessionSecret,
    encryptionKey: e.ENCRYPTION_KEY ?? keptSecret(dataDir, 'encryption-key'),
    providerEmailDomain: e.PROVIDER_EMAIL_DOMAIN ?? (production ? '' : 'provider.test'),
    publicUrl,
    sessionHours: e.SESSION_HOURS,
    invitationDays: e.INVITATION_DAYS,
    signerCopyDays: e.SIGNER_COPY_DAYS,
    cnameTarget: e.CNAME_TARGET,
    dnsServers: e.DNS_SERVERS ? e.DNS_SERVERS.split(',').map((server) => server.trim()) : [],
    autoSeed: e.AUTO_SEED ? e.AUTO_SEED === 'true' : !production && !e.DATABASE_URL,
    signIn: {
      google: google ?? (devIdp ? devIdpClient(sessionSecret, publicUrl, 'google') : null),
      azure: azure ?? (devIdp ? devIdpClient(sessionSecret, publicUrl, 'azure') : null),
    },
    devIdp,
    devStripe,
    trustProxy,
    trustProxyHops: trustProxy ? (e.TRUST_PROXY_HOPS ?? 1) : 0,
    outboundAllowHosts: parseAllowHosts(e.OUTBOUND_ALLOW_HOSTS),
    outboundCa: e.OUTBOUND_CA_FILE ? fs.readFileSync(e.OUTBOUND_CA_FILE, 'utf8') : undefined,
    twilioApiUrl: e.TWILIO_API_URL.replace(/\/$/, ''),
    datadogIntakeUrl: e.DATADOG_INTAKE_URL?.replace(/\/$/, ''),
    cloudwatchEndpoint: e.CLOUDWATCH_ENDPOINT?.replace(/\/$/, ''),
    logShipping: e.LOG_SHIPPING === 'on',
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    jobPollMs: e.JOB_POLL_MS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    // a balancer checking every 2 s and marking a server down after 3 failures needs > 6 s; a
    // development Ctrl-C or a lone process needs none
    readyDrainSeconds: e.READY_DRAIN_SECONDS ?? (production ? 10 : 0),
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    logLevel: e.LOG_LEVEL,
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, ''),
          ratio: e.OTEL_TRACES_SAMPLER_ARG,
          serviceName: e.OTEL_SERVICE_NAME,
        }
      : null,
    workers: e.WORKERS,
    liveStreams: { perSession: e.LIVE_STREAMS_PER_SESSION, perAccount: e.LIVE_STREAMS_PER_ACCOUNT },
    zoom: {
      clientId: e.ZOOM_CLIENT_ID ?? '',
      clientSecret: e.ZOOM_CLIENT_SECRET ?? '',
      accountId: e.ZOOM_ACCOUNT_ID ?? '',
      apiClientId: e.ZOOM_API_CLIENT_ID ?? e.ZOOM_CLIENT_ID ?? '',
      apiClientSecret: e.ZOOM_API_CLIENT_SECRET ?? e.ZOOM_CLIENT_SECRET ?? '',
      apiUrl: e.ZOOM_API_URL.replace(/\/$/, ''),
      oauthUrl: e.ZOOM_OAUTH_URL,
    },
    webex: {
      appId: e.WEBEX_APP_ID ?? '',
      allowedIssuers: e.WEBEX_ALLOWED_ISSUERS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    },
    raw: devStripe ? { ...env, ...devStripeEnv(devStripe) } : env,
  };
}

/** The development Stripe stand-in's settings; its secrets are derived from the session secret, so they hold across restarts. */
export type DevStripeSettings = {
  port: number;
  url: string;
  clientId: string;
  secretKey: string;
  webhookSecret: string;
  connectWebhookSecret: string;
};

function devStripeSettings(sessionSecret: string, port: number): DevStripeSettings {
  const derive = (what: string) =>
    crypto.createHmac('sha256', sessionSecret).update(`dev-stripe:${what}`).digest('hex').slice(0, 32);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    clientId: 'ca_dev_standin',
    secretKey: `sk_test_dev_${derive('key')}`,
    webhookSecret: `whsec_${derive('webhook')}`,
    connectWebhookSecret: `whsec_${derive('connect')}`,
  };
}

/** The price of each app's subscription on the stand-in. */
export const devStripePriceId = (app: string) => `price_dev_${app.replace(/-/g, '_')}`;

/** The STRIPE_* settings that point billing and Payments at the stand-in (read as if set in the environment). */
function devStripeEnv(s: DevStripeSettings): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: s.secretKey,
    STRIPE_WEBHOOK_SECRET: s.webhookSecret,
    STRIPE_API_BASE: s.url,
    STRIPE_CONNECT_CLIENT_ID: s.clientId,
    STRIPE_CONNECT_WEBHOOK_SECRET: s.connectWebhookSecret,
    STRIPE_CONNECT_AUTHORIZE_URL: `${s.url}/oauth/authorize`,
    ...Object.fromEntries(
      APPS.filter((a) => a.billable).map((a) => [
        `STRIPE_PRICE_${a.id.toUpperCase().replace(/-/g, '_')}`,
        devStripePriceId(a.id),
      ]),
    ),
  };
}

/** A config for tests: fixed secrets, no files. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    databaseUrl: undefined,
    directDatabaseUrl: undefined,
    database: DEFAULT_DATABASE_SETTINGS,
    dataDir: '/nonexistent',
    sessionSecret: 'test-session-secret-test-session-secret',
    encryptionKey: 'test-encryption-key-test-encryption-key',
    providerEmailDomain: 'provider.test',
    publicUrl: 'http://localhost:3000',
    sessionHours: 12,
    invitationDays: 7,
    signerCopyDays: 30,
    cnameTarget: 'custom.switchboard.example',
    dnsServers: [],
    autoSeed: false,
    signIn: { google: null, azure: null },
    devIdp: false,
    devStripe: null,
    trustProxy: true,
    trustProxyHops: 1,
    outboundAllowHosts: [],
    outboundCa: undefined,
    twilioApiUrl: 'https://api.twilio.com',
    datadogIntakeUrl: undefined,
    cloudwatchEndpoint: undefined,
    logShipping: false,
    jobLeaseSeconds: 60,
    jobPollMs: 30_000,
    shutdownGraceSeconds: 10,
    readyDrainSeconds: 0,
    metrics: null,
    logLevel: 'silent',
    tracing: null,
    workers: 1,
    liveStreams: { perSession: 20, perAccount: 1_000 },
    zoom: {
      clientId: '',
      clientSecret: '',
      accountId: '',
      apiClientId: '',
      apiClientSecret: '',
      apiUrl: 'https://api.zoom.us/v2',
      oauthUrl: 'https://zoom.us/oauth/token',
    },
    webex: { appId: '', allowedIssuers: DEFAULT_WEBEX_ISSUERS.split(',') },
    raw: {},
    ...overrides,
  };
}
