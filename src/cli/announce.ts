/**
 * What `rastile serve` prints once it listens: links that work with this server's local roots
 * (the demo when it is inside them, else the first GeoTIFF found in them, else none), the local
 * roots and the network policy. Printed on stderr so that stdout stays a pure JSON log stream.
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { DEMO_FILE, REAL_DEMO_FILE } from './config-from-env.ts';

const inside = (file: string, root: string): boolean => file === root || file.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** First *.tif/*.tiff under the roots, breadth first, looking at a bounded number of entries. */
export function firstGeoTiff(roots: readonly string[], maxEntries = 5000): string | undefined {
  const queue = [...roots];
  let seen = 0;
  while (queue.length > 0 && seen < maxEntries) {
    const dir = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > maxEntries) break;
      if (e.isFile() && /\.tiff?$/i.test(e.name)) return path.join(dir, e.name);
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') queue.push(path.join(dir, e.name));
    }
  }
  return undefined;
}

/** The dataset the banner links to, or undefined when no local file is reachable. */
export function exampleDataset(roots: readonly string[]): { file: string; demo: boolean } | undefined {
  const realRoots = roots.map(real);
  if (realRoots.some((r) => inside(real(DEMO_FILE), r))) return { file: DEMO_FILE, demo: true };
  const file = firstGeoTiff(roots);
  return file === undefined ? undefined : { file, demo: false };
}

/** The network policy in one line. */
export function networkPolicy(config: Config): string {
  const s = config.sources;
  const hosts = s.allowedHosts?.length ? `; allowed hosts: ${s.allowedHosts.join(', ')}` : '';
  return s.allowPrivateHosts
    ? 'public and private/loopback hosts allowed (--allow-private-hosts)'
    : `public hosts only; private/loopback addresses refused (--allow-private-hosts to allow)${hosts}`;
}

export function bannerLines(config: Config): string[] {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const workers = config.workers > 1 ? ` with ${config.workers} workers` : '';
  const roots = config.sources.localRoots;
  const lines = [
    '',
    `rastile is ready on ${base}${workers}  (start page: ${base}/ · API docs: ${base}/api.html)`,
    `Local roots: ${roots.length ? roots.join(', ') : 'none (local files disabled)'}  [--local-roots / RASTILE_LOCAL_ROOTS]`,
    `Network: ${networkPolicy(config)}`,
  ];
  const example = exampleDataset(roots);
  if (example === undefined) {
    lines.push('No GeoTIFF found in the local roots: pass ?url=<path or URL> to the endpoints.');
  } else {
    const u = encodeURIComponent(example.file);
    const mapParams = example.demo ? '&rescale=0,3000&colormap_name=terrain' : '';
    lines.push(
      `${example.demo ? 'Demo dataset' : 'Example dataset'}: ${example.file}`,
      `  info:       ${base}/cog/info?url=${u}`,
      `  statistics: ${base}/cog/statistics?url=${u}`,
      `  map:        ${base}/cog/WebMercatorQuad/map.html?url=${u}${mapParams}`,
    );
    // the real place beside the synthetic DEM (demo/olinda-landsat7.tif), in the viewer
    if (example.demo)
      lines.push(`Real data (Landsat 7 over Olinda, Brazil): ${base}/cog/viewer?url=${encodeURIComponent(REAL_DEMO_FILE)}&bidx=3&bidx=2&bidx=1`);
  }
  lines.push('');
  return lines;
}

export function announce(config: Config): void {
  process.stderr.write(bannerLines(config).join('\n') + '\n');
}
