/** A minimal local-file Source for the format-layer tests (the real ones live in src/sources/). */
import { open, stat } from 'node:fs/promises';
import type { Source } from '../../src/sources/source.ts';

export interface CountingSource extends Source {
  reads: number;
  bytesRead: number;
}

export async function fileSource(path: string): Promise<CountingSource> {
  const { size } = await stat(path);
  const src: CountingSource = {
    url: path,
    size,
    reads: 0,
    bytesRead: 0,
    async fetch(offset: number, length: number): Promise<Uint8Array> {
      src.reads++;
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(n);
      if (n === 0) return buf;
      const fh = await open(path, 'r');
      try {
        const { bytesRead } = await fh.read(buf, 0, n, offset);
        src.bytesRead += bytesRead;
        return bytesRead < n ? buf.slice(0, bytesRead) : buf;
      } finally {
        await fh.close();
      }
    },
  };
  return src;
}
