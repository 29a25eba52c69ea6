// The Temporal client connection used by the API (to start and read loops) and its health probe.
import { Client, Connection } from '@temporalio/client';

export interface TemporalSettings {
  address: string;
  namespace: string;
  taskQueue: string;
}

export class TemporalGateway {
  private connection: Connection | undefined;
  private client: Client | undefined;

  constructor(readonly settings: TemporalSettings) {}

  /** Connects lazily, with a short timeout, so an unreachable server fails fast. */
  async getClient(): Promise<Client> {
    if (this.client) return this.client;
    this.connection = await Connection.connect({ address: this.settings.address, connectTimeout: 3_000 });
    this.client = new Client({ connection: this.connection, namespace: this.settings.namespace });
    return this.client;
  }

  async ping(): Promise<boolean> {
    try {
      const client = await this.getClient();
      await withTimeout(client.workflowService.getSystemInfo({}), 2_000);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.connection?.close();
    this.connection = undefined;
    this.client = undefined;
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
