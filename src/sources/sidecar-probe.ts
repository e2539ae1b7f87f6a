/**
 * Which sidecars of a local file exist (`<file>.ovr`, `.msk`, `.aux.xml`…), checked on every use
 * of a dataset without an open attempt per absent name.
 *
 * A name appearing in or vanishing from a directory (create, unlink, rename) changes the
 * directory's mtime. So when the directory's stat (device, inode, mtime, ctime) is the one seen
 * at the last probe, the sidecars absent then are still absent and only the present ones are
 * opened (one `stat` each through the opener's pooled source). The same racy-window rule as for
 * files applies (sources/version.ts `fileSettled`): a probe whose directory stat was taken within
 * RACY_FILE_MS of the directory's mtime is not trusted, and the next use probes every name again.
 * A sidecar that is a dangling symlink whose target appears later is not seen until the directory
 * changes (GDAL sees it on the next open; we keep our answer until then).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { LruCache } from '../util/lru-cache.ts';
import { parseLocation } from './location.ts';
import type { SourceOpener } from './open-source.ts';
import type { Source } from './source.ts';
import { fileSettled } from './version.ts';

interface Probe {
  dir: string;
  /** Per suffix: absent at the probe. */
  absent: boolean[];
}

/** Directory listings remembered: a few hundred bytes per dataset path. */
const REMEMBERED = 4096;

export class SidecarProbe {
  private readonly probes = new LruCache<string, Probe>(REMEMBERED, () => 1);

  constructor(private readonly opener: SourceOpener) {}

  /** The sidecar sources of `location` (null where absent, and everywhere for non-local locations). */
  async open(location: string, suffixes: readonly string[], signal?: AbortSignal): Promise<(Source | null)[]> {
    const loc = parseLocation(location);
    if (loc.kind !== 'file') return suffixes.map(() => null);
    const observedAt = Date.now();
    let dir: string | null = null;
    try {
      const st = await stat(path.dirname(loc.path), { bigint: true });
      if (fileSettled(st, observedAt)) dir = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      dir = null;
    }
    const key = `${loc.path}\u0000${suffixes.join('\u0000')}`;
    const prev = this.probes.get(key);
    const known = prev !== undefined && dir !== null && prev.dir === dir ? prev.absent : null;
    const found = await Promise.all(suffixes.map((s, i) => (known?.[i] ? Promise.resolve(null) : this.opener.openIfExists(`${location}${s}`, signal))));
    if (dir === null) this.probes.delete(key);
    else this.probes.set(key, { dir, absent: found.map((s) => s === null) });
    return found;
  }
}
