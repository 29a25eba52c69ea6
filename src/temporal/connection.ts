// The Temporal client connection used by the API (to start and read loops) and its health probe.
import fs from 'node:fs';
import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  defaultPayloadConverter,
  makeGrpcRetryInterceptor,
  type WorkflowClientInterceptor,
} from '@temporalio/client';
import type { TemporalSecurity } from '../config/config.js';
import { ApiError } from '../errors/catalogue.js';
import { DependencyHealth } from '../ops/health.js';
import { isTimeout, withTimeout } from '../shared/timeout.js';

export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
  /** TLS and credentials (config.temporal.security); none for the local dev server. */
  security?: TemporalSecurity;
}

/** The TLS and API key options of a Temporal connection (client or worker) from the configuration. */
export function connectionSecurity(security: TemporalSecurity | undefined): {
  tls?: { clientCertPair?: { crt: Buffer; key: Buffer } } | boolean;
  apiKey?: string;
} {
  if (!security?.tls) return {};
  const cert = security.clientCert;
  return {
    tls: cert ? { clientCertPair: { crt: fs.readFileSync(cert.certPath), key: fs.readFileSync(cert.keyPath) } } : true,
    ...(security.apiKey ? { apiKey: security.apiKey } : {}),
  };
}

/**
 * The header a workflow start carries the starting process's graph bookmarks in: workflows/interceptors.ts hands it
 * to every activity, and the worker runs each activity causally after it (src/temporal/worker.ts), so a loop, a
 * sync or a delivery started by a request reads what that request wrote, on whichever worker and Neo4j member
 * (docs/operations.md, "Consistency across requests").
 */
export const BOOKMARKS_HEADER = 'gks-bookmarks';

type Headers = Parameters<NonNullable<WorkflowClientInterceptor['startWithDetails']>>[0]['headers'];

/** The bookmarks a workflow's or an activity's headers carry (none when it was started without). */
export function bookmarksOf(headers: Headers): string[] {
  const payload = headers[BOOKMARKS_HEADER];
  if (!payload) return [];
  const bookmarks = defaultPayloadConverter.fromPayload<unknown>(payload);
  return Array.isArray(bookmarks) ? bookmarks.filter((b): b is string => typeof b === 'string') : [];
}

/** Puts the starting process's bookmarks (`source`: its bookmark manager's) on every workflow it starts. */
function bookmarking(source: () => Promise<Iterable<string>>): WorkflowClientInterceptor {
  const withBookmarks = async (headers: Headers): Promise<Headers> => ({
    ...headers,
    [BOOKMARKS_HEADER]: defaultPayloadConverter.toPayload([...(await source())]),
  });
  return {
    startWithDetails: async (input, next) => next({ ...input, headers: await withBookmarks(input.headers) }),
    signalWithStart: async (input, next) => next({ ...input, headers: await withBookmarks(input.headers) }),
  };
}

export class TemporalGateway {
  private connection: Connection | undefined;
  private client: Client | undefined;
  /** Kept current by failed calls (reportFailure) and the probe; loop starts check it first. */
  readonly health = new DependencyHealth('temporal', 5);

  constructor(
    readonly settings: TemporalSettings,
    /** This process's graph bookmarks, put on every workflow it starts (BOOKMARKS_HEADER); none: none are. */
    private readonly bookmarks: (() => Promise<Iterable<string>>) | null = null,
  ) {}

  /** Probes every 2 s while up and every second while down. */
  startProbe(): void {
    this.health.startProbe(() => this.ping(), 2_000, 1_000);
  }

  reportFailure(error: unknown): void {
    this.health.markDown(error instanceof Error ? error.message : String(error));
  }

  /** Connects lazily, with a short timeout, so an unreachable server fails fast. */
  async getClient(): Promise<Client> {
    if (this.client) return this.client;
    this.connection = await Connection.connect({
      address: this.settings.address,
      ...connectionSecurity(this.settings.security),
      connectTimeout: 3_000,
      // The SDK's default retries UNAVAILABLE 10 times with backoff to 5 s (about 20 s against a dead
      // server); three quick tries cover a blip and let an outage surface in well under a second.
      interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3, maxIntervalMs: () => 300 }))],
    });
    this.client = new Client({
      connection: this.connection,
      namespace: this.settings.namespace,
      interceptors: { workflow: this.bookmarks ? [bookmarking(this.bookmarks)] : [] },
    });
    return this.client;
  }

  /**
   * The one "Temporal unavailable" answer: 503 loop_dispatch_unavailable with since and Retry-After (the probe's
   * next look); `message` says what did not happen.
   */
  unavailable(message: string, details: Record<string, unknown> = {}): ApiError {
    return new ApiError(
      'loop_dispatch_unavailable',
      message,
      { since: this.health.snapshot().since, ...details },
      { 'Retry-After': String(this.health.retryAfterSeconds) },
    );
  }

  /** The client, connected within 5 s, or the 503 of `unavailable(message)`. */
  async clientOrUnavailable(message: string): Promise<Client> {
    try {
      return await withTimeout(this.getClient(), 5_000);
    } catch {
      throw this.unavailable(message);
    }
  }

  /** Asks Temporal for its system info (one cheap call), connecting first; throws what it met within `timeoutMs`. */
  async ask(timeoutMs: number): Promise<void> {
    await withTimeout(
      this.getClient().then((client) => client.workflowService.getSystemInfo({})),
      timeoutMs,
    );
  }

  async ping(): Promise<boolean> {
    try {
      // Connected first (bounded by its own connectTimeout), so the 1.5 s bound is the answer's alone.
      await this.getClient();
      await this.ask(1_500);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.health.stopProbe();
    await this.connection?.close();
    this.connection = undefined;
    this.client = undefined;
  }
}

/**
 * gRPC UNAVAILABLE (14) or DEADLINE_EXCEEDED (4), on the error or its cause, or our own timeout: Temporal is not
 * answering.
 */
export function isTemporalUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (code === 14 || code === 4) return true;
    if (isTimeout(e)) return true;
    if (e instanceof Error && e.name === 'TransportError') return true;
  }
  return false;
}
