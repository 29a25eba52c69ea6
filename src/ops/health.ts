// The availability of one dependency (Neo4j, Temporal) as this process sees it: kept current by the
// errors requests meet and by a background probe, so that while a dependency is known to be down
// requests fail at once instead of waiting out driver timeouts, and /readyz can say since when.

export interface HealthSnapshot {
  status: 'up' | 'down';
  /** When the current status began (ISO 8601). */
  since: string;
  last_error: string | null;
  /** How many times the dependency went from up to down since the process started. */
  outages: number;
}

type Listener = (up: boolean) => void;

export class DependencyHealth {
  private up = true;
  private sinceMs = Date.now();
  private lastError: string | null = null;
  private outages = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly listeners: Listener[] = [];

  constructor(
    readonly name: string,
    readonly retryAfterSeconds: number,
  ) {}

  isUp(): boolean {
    return this.up;
  }

  onChange(listener: Listener): void {
    this.listeners.push(listener);
  }

  markDown(reason: string): void {
    this.lastError = reason;
    if (!this.up) return;
    this.up = false;
    this.sinceMs = Date.now();
    this.outages += 1;
    for (const l of this.listeners) l(false);
  }

  markUp(): void {
    if (this.up) return;
    this.up = true;
    this.sinceMs = Date.now();
    for (const l of this.listeners) l(true);
  }

  snapshot(): HealthSnapshot {
    return {
      status: this.up ? 'up' : 'down',
      since: new Date(this.sinceMs).toISOString(),
      last_error: this.lastError,
      outages: this.outages,
    };
  }

  /**
   * Probes every upMs while up and every downMs while down. One good answer means up; it takes two
   * failed probes in a row to mark it down (a slow answer on a loaded machine is not an outage;
   * requests that meet a dead connection mark it down at once themselves).
   */
  startProbe(probe: () => Promise<boolean>, upMs: number, downMs: number): void {
    this.stopProbe();
    let failures = 0;
    const tick = async () => {
      if (this.probing) return;
      this.probing = true;
      try {
        if (await probe()) {
          failures = 0;
          this.markUp();
        } else if (++failures >= 2) this.markDown('probe failed twice in a row');
      } catch (error) {
        if (++failures >= 2) this.markDown(error instanceof Error ? error.message : String(error));
      } finally {
        this.probing = false;
      }
      if (this.timer !== undefined) this.timer = setTimeout(() => void tick(), this.up ? upMs : downMs).unref();
    };
    this.timer = setTimeout(() => void tick(), upMs).unref();
  }

  stopProbe(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
