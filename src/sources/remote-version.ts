/**
 * The version of a remote object, learnt from the first response and checked on every later one.
 *
 * Why If-Match plus comparison, not If-Range: with `If-Range` a changed object comes back as a
 * 200 with the whole new body (gigabytes for a large COG) that we would have to download or cut
 * off; with `If-Match: <strong ETag>` the server answers a changed object with a small 412.
 * Servers may ignore If-Match, and weak ETags cannot be used with it (it compares strongly and
 * would always fail), so every 2xx/416 response's own validators (ETag, Last-Modified) and total
 * size are compared with the first response's as well: a response of another version is never
 * returned, whatever the server does with conditions.
 *
 * Without ETag and Last-Modified the version is the object's size plus a unique suffix: a size
 * change is seen within one open, and nothing is shared across opens (each request re-reads the
 * header; the opener never reuses such a source), since a same-size change could not be seen.
 *
 * Last-Modified counts whole seconds, and so do ETags derived from it (nginx's is
 * `"<mtime seconds hex>-<size hex>"`): an object rewritten with the same size within the second
 * of its Last-Modified keeps every such validator. As for local files (version.ts, RACY_FILE_MS),
 * when the version rests on the Last-Modified second (no ETag, or nginx's) and that is less than
 * RACY_FILE_MS before the response's Date (the server's clock; ours without one), the version is
 * unique and the source is not reused; a later open, past that window, is trusted. Other ETags
 * (S3's content MD5, Apache's µs mtime) are trusted at once.
 */
import type { HeaderReader } from './upstream-response.ts';
import { RACY_FILE_MS, uniqueVersion } from './version.ts';

/** Whether `etag` spells the Last-Modified second, as nginx's `"<mtime hex>-<size hex>"` does. */
export function etagFromSeconds(etag: string, lastModified: string): boolean {
  const m = /^(?:W\/)?"([0-9a-f]{1,12})-[0-9a-f]{1,16}"$/.exec(etag);
  return m !== null && Number.parseInt(m[1]!, 16) * 1000 === Date.parse(lastModified);
}

/** Whether `lastModified` is within RACY_FILE_MS of the response's `date` (or of now); unparsable dates count as recent. */
export function modifiedRecently(lastModified: string, date: string | null, now = Date.now()): boolean {
  const modified = Date.parse(lastModified);
  const seen = date !== null && Number.isFinite(Date.parse(date)) ? Date.parse(date) : now;
  return !Number.isFinite(modified) || seen - modified < RACY_FILE_MS;
}

export class RemoteVersion {
  /** `etag:<ETag>`, `lm:<Last-Modified>` or `size:<n>~<unique>`; undefined before the first response. */
  version: string | undefined;
  /** The version rests on a validator, so the source may be reused by later opens. */
  validated = false;
  /** A response showed another version: the source must not be used again. */
  changed = false;
  private etag: string | null = null;
  private lastModified: string | null = null;
  private total: number | undefined;
  /** When a response last confirmed this version (Date.now()). */
  confirmedAt = 0;

  /** Request headers that make a server refuse other versions (412). */
  conditions(): Readonly<Record<string, string>> | undefined {
    if (this.etag === null || this.etag.startsWith('W/')) return undefined;
    return { 'if-match': this.etag };
  }

  /**
   * Records the validators of the first response, or compares a later one's with them. Returns
   * what differs (and marks the source changed), or null when the response is of this version.
   */
  observe(headers: HeaderReader, total: number | undefined): string | null {
    const etag = headers.get('etag');
    const lastModified = headers.get('last-modified');
    if (this.version === undefined) {
      this.etag = etag;
      this.lastModified = lastModified;
      this.total = total;
      const bySeconds = lastModified !== null && (etag === null || etagFromSeconds(etag, lastModified));
      const racy = bySeconds && modifiedRecently(lastModified, headers.get('date'));
      this.validated = (etag !== null || lastModified !== null) && !racy;
      const named = etag !== null ? `etag:${etag}` : lastModified !== null ? `lm:${lastModified}` : `size:${total ?? '?'}`;
      this.version = this.validated ? named : uniqueVersion(named);
      this.confirmedAt = Date.now();
      return null;
    }
    let detail: string | null = null;
    if (this.etag !== null && etag !== null && etag !== this.etag) detail = `ETag ${this.etag} → ${etag}`;
    else if (this.lastModified !== null && lastModified !== null && lastModified !== this.lastModified) {
      detail = `Last-Modified ${this.lastModified} → ${lastModified}`;
    } else if (this.total !== undefined && total !== undefined && total !== this.total) detail = `size ${this.total} → ${total} bytes`;
    if (this.total === undefined) this.total = total;
    if (detail !== null) this.changed = true;
    else this.confirmedAt = Date.now();
    return detail;
  }

  /** A 412 answer to our If-Match. */
  preconditionFailed(): string {
    this.changed = true;
    return `HTTP 412: no longer ETag ${this.etag ?? '?'}`;
  }
}
