/**
 * A signal that aborts when the caller's signal aborts or after `ms`, whichever comes first.
 * Hand-written instead of AbortSignal.any + AbortSignal.timeout: this one removes its listener
 * from the (possibly long-lived) caller signal and clears its timer when the attempt ends.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private expired = false;
  private readonly onCallerAbort: () => void;

  constructor(
    readonly ms: number,
    private readonly caller?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.onCallerAbort = () => this.controller.abort(caller!.reason);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new DOMException(`Deadline of ${ms} ms exceeded`, 'TimeoutError'));
    }, ms);
    this.timer.unref();
    if (caller !== undefined) {
      if (caller.aborted) this.controller.abort(caller.reason);
      else caller.addEventListener('abort', this.onCallerAbort, { once: true });
    }
  }

  /** True when our own timer fired (not the caller's signal). */
  get timedOut(): boolean {
    return this.expired;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}
