import { open, type FileHandle } from 'node:fs/promises';

interface PoolEntry {
  handle: Promise<FileHandle>;
  users: number;
  /** Dropped from the pool while in use: closed when its last user is done. */
  retired: boolean;
}

/**
 * Open read-only file handles shared by all local sources of one opener. A handle is in use
 * while a read runs; at most `maxIdle` unused handles stay open (least recently used closed
 * first), so descriptors are bounded and never leak when sources are dropped.
 *
 * Handles are pooled under a key naming the file version they were opened for (path + device +
 * inode), and `verify` checks a new handle before it is shared: after a write-and-rename the
 * path leads to another inode, and a handle on the old one must never serve the new version's
 * reads (nor the other way round).
 */
export class FileHandlePool {
  private readonly entries = new Map<string, PoolEntry>(); // Map order = least recently used first

  constructor(private readonly maxIdle: number) {}

  get openCount(): number {
    return this.entries.size;
  }

  async use<T>(path: string, key: string, fn: (handle: FileHandle) => Promise<T>, verify?: (handle: FileHandle) => Promise<void>): Promise<T> {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      const created: PoolEntry = { handle: openVerified(path, verify), users: 0, retired: false };
      entry = created;
      created.handle.catch(() => {
        if (this.entries.get(key) === created) this.entries.delete(key);
      });
    } else {
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    entry.users++;
    try {
      return await fn(await entry.handle);
    } finally {
      entry.users--;
      if (entry.retired && entry.users === 0) closeEntry(entry);
      this.trim();
    }
  }

  /** Pools an already open handle under `key` (closed instead when one is pooled there already). */
  adopt(key: string, handle: FileHandle): void {
    if (this.entries.has(key)) {
      handle.close().catch(() => {});
      return;
    }
    this.entries.set(key, { handle: Promise.resolve(handle), users: 0, retired: false });
    this.trim();
  }

  /** Closes the handle pooled under `key` (at once when idle, else after its last user). */
  retire(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    if (entry.users === 0) closeEntry(entry);
    else entry.retired = true;
  }

  private trim(): void {
    let idle = 0;
    for (const e of this.entries.values()) if (e.users === 0) idle++;
    for (const [key, e] of this.entries) {
      if (idle <= this.maxIdle) break;
      if (e.users > 0) continue;
      this.entries.delete(key);
      idle--;
      closeEntry(e);
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.handle.then((h) => h.close()).catch(() => {})));
  }
}

function closeEntry(e: PoolEntry): void {
  e.handle.then((h) => h.close()).catch(() => {});
}

async function openVerified(path: string, verify: ((handle: FileHandle) => Promise<void>) | undefined): Promise<FileHandle> {
  const handle = await open(path, 'r');
  if (verify === undefined) return handle;
  try {
    await verify(handle);
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
  return handle;
}
