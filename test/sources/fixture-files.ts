import { mkdtemp, rm, writeFile, mkdir, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Deterministic bytes: byte i = (i * 7 + (i >> 8) * 13 + seed) & 255, so every offset is distinguishable enough. */
export function patternBytes(length: number, seed = 0): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 7 + (i >> 8) * 13 + seed) & 255;
  return out;
}

export interface TempTree {
  dir: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh temp directory with the given files (relative path → bytes). Their times are set a
 * minute back: a file modified within the last seconds is re-opened on every use (its mtime
 * cannot yet prove a later rewrite would change it, src/sources/version.ts), which tests of
 * source reuse must not see.
 */
export async function makeTempTree(files: Record<string, Uint8Array | string>): Promise<TempTree> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rastile-sources-'));
  for (const [rel, data] of Object.entries(files)) {
    const full = path.join(dir, rel);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data);
    const past = new Date(Date.now() - 60_000);
    await utimes(full, past, past);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
