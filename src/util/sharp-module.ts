/**
 * sharp (libvips) loaded on first use: only JPEG/WebP output, JPEG/WebP-compressed blocks and a
 * few PNG layouts need it, and loading it costs ~11 MB of resident memory that a server serving
 * PNG tiles of deflate COGs never uses (measured with bench/tiles.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Sharp from 'sharp';

export type SharpModule = typeof Sharp;

let loading: Promise<SharpModule> | null = null;

export function loadSharp(): Promise<SharpModule> {
  loading ??= import('sharp').then((m) => {
    // Every call encodes a fresh raw buffer: libvips' operation cache can never hit, it only holds memory.
    m.default.cache(false);
    return m.default;
  });
  return loading;
}

let versions: { sharp: string | null; libvips: string | null } | undefined;

/** sharp's version and the libvips version its prebuilt binaries pin, without loading them (read once: /healthz sends them). */
export function sharpVersions(): { sharp: string | null; libvips: string | null } {
  versions ??= readSharpVersions();
  return versions;
}

function readSharpVersions(): { sharp: string | null; libvips: string | null } {
  try {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve('sharp')), '..', 'package.json');
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: string; config?: { libvips?: string } };
    return { sharp: pkg.version ?? null, libvips: pkg.config?.libvips?.replace(/^[^0-9]*/, '') ?? null };
  } catch {
    return { sharp: null, libvips: null };
  }
}
