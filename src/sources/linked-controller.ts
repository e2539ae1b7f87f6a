/**
 * An AbortController that follows a parent signal: it aborts (with the parent's reason) when the
 * parent does, and can be aborted on its own to end work the parent should outlive (the other
 * reads of a batch, a search still paging). `dispose()` removes the listener from the parent, so
 * a long-lived request signal does not collect one listener per batch or per read.
 *
 * (`AbortSignal.any` would link without a handle to remove the listener.)
 */
export class LinkedAbortController {
  private readonly controller = new AbortController();
  private readonly onParentAbort: (() => void) | undefined;

  constructor(private readonly parent?: AbortSignal) {
    if (parent === undefined) return;
    if (parent.aborted) {
      this.controller.abort(parent.reason);
      return;
    }
    this.onParentAbort = () => this.controller.abort(parent.reason);
    parent.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Aborts this controller only (the parent is untouched). A second call does nothing. */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  /** Stops following the parent. Does not abort: call abort() first to end work still running. */
  dispose(): void {
    if (this.onParentAbort !== undefined) this.parent?.removeEventListener('abort', this.onParentAbort);
  }
}
