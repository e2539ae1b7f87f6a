/**
 * What a request read, for the response cache (src/http/response-cache): every versioned input
 * (a dataset location and the version of its bytes, recorded where the dataset is opened) and
 * whether anything unversioned was read (a search result, a document cached by time), which
 * makes the response uncacheable. The current request's ReadSet travels in an AsyncLocalStorage
 * entered by the HTTP layer around the handler, so the readers record without parameter threading;
 * outside a request (tests, the CLI) recording is a no-op.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** One versioned input: `kind` names the validator that tells its current version (e.g. 'grid'). */
export interface ReadDep {
  kind: string;
  location: string;
  version: string;
}

export class ReadSet {
  private readonly seen = new Map<string, ReadDep>();
  /** Why the response may not be cached (the first reason seen), if any. */
  uncacheable: string | undefined;
  /** Request inputs beside the query the response depends on (e.g. 'base': the scheme and host of links). */
  readonly inputs = new Set<string>();

  record(kind: string, location: string, version: string): void {
    // A version made unique to one open (sources/version.ts uniqueVersion) is never seen again.
    if (/~\d+(\||$)/.test(version)) return this.markUnversioned(`${location} has no stable version`);
    const id = `${kind}\u0000${location}`;
    const prior = this.seen.get(id);
    if (prior !== undefined && prior.version !== version) return this.markUnversioned(`${location} changed while the request ran`);
    this.seen.set(id, { kind, location, version });
  }

  markUnversioned(reason: string): void {
    this.uncacheable ??= reason;
  }

  /** The inputs read, in a stable order (kind, then location). */
  deps(): ReadDep[] {
    return [...this.seen.values()].sort((a, b) => (a.kind === b.kind ? cmp(a.location, b.location) : cmp(a.kind, b.kind)));
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const storage = new AsyncLocalStorage<ReadSet>();

/** Run `fn` (and everything it starts) recording into `set`. */
export function runWithReadSet<T>(set: ReadSet, fn: () => T): T {
  return storage.run(set, fn);
}

/** Record that the current request read `location` at `version` (no-op outside a recorded request). */
export function recordRead(kind: string, location: string, version: string): void {
  storage.getStore()?.record(kind, location, version);
}

/** The current request read something without a version: its response must not be cached. */
export function markUnversionedRead(reason: string): void {
  storage.getStore()?.markUnversioned(reason);
}

/** The current request's response depends on a request input beside its parameters. */
export function recordRequestInput(name: string): void {
  storage.getStore()?.inputs.add(name);
}
