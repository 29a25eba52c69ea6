// Reads the service configuration from the environment once, validating every value so that bad
// configuration fails at start with a message naming the variable (README: Configuration).
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
  };
  temporal: { address: string | undefined; namespace: string; taskQueue: string; port: number; uiPort: number };
  /** Per key (after authentication) and per client address (before it, so bad keys are limited too). */
  rateLimit: { perSecond: number; burst: number; addressPerSecond: number; addressBurst: number };
  llm: { baseUrl: string | undefined; apiKey: string | undefined; model: string };
  fetch: { allowPrivate: boolean; timeoutMs: number; maxBytes: number; maxRedirects: number };
  dockerFallback: boolean;
  /** GET /metrics (Prometheus text, no auth: the service binds to loopback by default). */
  metrics: { enabled: boolean };
  /** Port of the Neo4j Browser that `npm start` serves; 0 serves none. */
  browserPort: number;
  /** Connection secrets (AES-256-GCM): the current key and older ones still accepted for reading (rotation). */
  secrets: { key: Buffer | null; previousKeys: Buffer[] };
  /** Pages one connectionSync workflow run stages before it continues as new (keeps its history small). */
  syncPagesPerRun: number;
}

type Env = Record<string, string | undefined>;

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
    },
    temporal: {
      address: hostPort(env, 'TEMPORAL_ADDRESS'),
      namespace: str(env, 'TEMPORAL_NAMESPACE', 'default'),
      taskQueue: str(env, 'TEMPORAL_TASK_QUEUE', 'gks-loops'),
      port: int(env, 'GKS_TEMPORAL_PORT', 7233, 1, 65535),
      uiPort: int(env, 'GKS_TEMPORAL_UI_PORT', 8233, 1, 65535),
    },
    rateLimit: rateLimits(env),
    llm: {
      baseUrl: uri(env, 'LLM_BASE_URL', ['http', 'https']),
      apiKey: optional(env, 'LLM_API_KEY'),
      model: str(env, 'LLM_MODEL', 'gpt-4o-mini'),
    },
    fetch: {
      allowPrivate: bool(env, 'FETCH_ALLOW_PRIVATE', false),
      timeoutMs: int(env, 'FETCH_TIMEOUT_MS', 10_000, 100, 120_000),
      maxBytes: int(env, 'FETCH_MAX_BYTES', 5_242_880, 1024, 104_857_600),
      maxRedirects: int(env, 'FETCH_MAX_REDIRECTS', 5, 0, 20),
    },
    dockerFallback: bool(env, 'GKS_USE_TESTCONTAINERS', false),
    metrics: { enabled: bool(env, 'METRICS_ENABLED', true) },
    syncPagesPerRun: int(env, 'GKS_SYNC_PAGES_PER_RUN', 500, 1, 5_000),
    browserPort: int(env, 'GKS_BROWSER_PORT', 7474, 0, 65535),
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
  };
}
