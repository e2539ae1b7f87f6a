/**
 * When a supervisor restarts a serving unit that died — a cluster worker (src/cli/supervisor.ts)
 * or a worker thread (src/cli/threads.ts), one rule for both: at once after a unit that had lived
 * `STABLE_MS`, else after an exponential backoff while deaths follow quick restarts; and no restart
 * at all once `MAX_STARTUP_FAILURES` units died before any ever listened (the configuration is
 * broken: port taken…). Restarts are counted for `rastile_worker_restarts_total`.
 */

/** A unit that lived this long before dying resets the backoff. */
const STABLE_MS = 10_000;
/** Units that die before any unit ever listened: the configuration is broken. */
const MAX_STARTUP_FAILURES = 3;

export class RestartPolicy {
  /** Restarts scheduled so far. */
  restarts = 0;
  /** Units that died before any unit listened. */
  startupFailures = 0;
  private quickDeaths = 0;
  private everListening = false;
  private readonly pending = new Set<NodeJS.Timeout>();

  constructor(
    private readonly baseMs = 100,
    private readonly maxMs = 10_000,
  ) {}

  /** A unit listens: start-up failures no longer stop the supervisor. */
  listened(): void {
    this.everListening = true;
  }

  /** No restart is waiting. */
  get idle(): boolean {
    return this.pending.size === 0;
  }

  /**
   * A unit died after `livedMs`: schedules `restart` and returns its delay in ms, or returns
   * undefined (nothing scheduled) when start-up failures say to give up.
   */
  schedule(livedMs: number, restart: () => void): number | undefined {
    if (!this.everListening && ++this.startupFailures >= MAX_STARTUP_FAILURES) return undefined;
    this.quickDeaths = livedMs >= STABLE_MS ? 0 : this.quickDeaths + 1;
    const delay = Math.min(this.maxMs, this.quickDeaths === 0 ? 0 : this.baseMs * 2 ** (this.quickDeaths - 1));
    this.restarts++;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      restart();
    }, delay);
    this.pending.add(timer);
    return delay;
  }

  /** Cancels every waiting restart (the supervisor stops). */
  cancel(): void {
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}
