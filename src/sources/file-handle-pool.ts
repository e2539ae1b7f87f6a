import { open, type FileHandle } from 'node:fs/promises';

interface PoolEntry {
  handle: Promise<FileHandle>;
  users: number;
}

/**
 * Open read-only file handles shared by all local sources of one opener. A handle is in use
 * while a read runs; at most `maxIdle` unused handles stay open (least recently used closed
 * first), so descriptors are bounded and never leak when sources are dropped.
 */
export class FileHandlePool {
  private readonly entries = new Map<string, PoolEntry>(); // Map order = least recently used first

  constructor(private readonly maxIdle: number) {}

  get openCount(): number {
    return this.entries.size;
  }

  async use<T>(path: string, fn: (handle: FileHandle) => Promise<T>): Promise<T> {
    let entry = this.entries.get(path);
    if (entry === undefined) {
      const created: PoolEntry = { handle: open(path, 'r'), users: 0 };
      entry = created;
      created.handle.catch(() => {
        if (this.entries.get(path) === created) this.entries.delete(path);
      });
    } else {
      this.entries.delete(path);
    }
    this.entries.set(path, entry);
    entry.users++;
    try {
      return await fn(await entry.handle);
    } finally {
      entry.users--;
      this.trim();
    }
  }

  private trim(): void {
    let idle = 0;
    for (const e of this.entries.values()) if (e.users === 0) idle++;
    for (const [path, e] of this.entries) {
      if (idle <= this.maxIdle) break;
      if (e.users > 0) continue;
      this.entries.delete(path);
      idle--;
      e.handle.then((h) => h.close()).catch(() => {});
    }
  }

  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => e.handle.then((h) => h.close()).catch(() => {})));
  }
}
