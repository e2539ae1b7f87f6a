import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
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

/** A fresh temp directory with the given files (relative path → bytes). */
export async function makeTempTree(files: Record<string, Uint8Array | string>): Promise<TempTree> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rastile-sources-'));
  for (const [rel, data] of Object.entries(files)) {
    const full = path.join(dir, rel);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
