#!/usr/bin/env node
/**
 * Fails (exit 1, listing every offender) when the source tree breaks its layering:
 *  1. a file imports from a layer it may not import (a higher one, or a side layer not below it);
 *  2. files import each other in a cycle (type-only imports count: one report per cycle group);
 *  3. a source file is longer than MAX_LINES, unless it is on the allow-list below and has not
 *     grown past the size recorded there.
 *
 * Layers, bottom to top (a layer may import itself and the layers listed for it, nothing else):
 *   foundation  files directly in src/ (errors, version, dtype, color): plain types and errors
 *   util        generic helpers (caches, buffer pool, zlib handles, Python emulation)
 *   geo         CRS, transforms, tile matrix sets: foundation + util only
 *   sources     byte sources (file, http, s3, caches, abort helpers)
 *   formats     file formats over sources (TIFF/COG)
 *   raster      the image model and everything computed on pixels (render, warp, statistics)
 *   readers     one reader per dataset kind (COG, STAC), GDAL RasterIO/WarpedVRT semantics
 *   mosaic      pixel selection over several reads
 *   search      NASA CMR granule search: beside the stack, on foundation, util, geo, sources only
 *   granule     the granule mosaic reader: readers + mosaic + search
 *   config      src/config.ts, the application's configuration (it names the sources' options)
 *   http        Fastify routes, parameters, OpenAPI
 *   cli         the command line
 *
 * Usage: node scripts/check-layers.js [srcDir]   (default: the repository's src/)
 * Plain Node ESM with no dependencies: imports are found with regular expressions (static
 * `import … from`, `export … from`, side-effect `import '…'` and dynamic/type `import('…')`), so
 * it runs before anything is built. Only relative specifiers are followed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 400;

/**
 * Files over MAX_LINES today, with their size when listed: the check fails when one grows.
 * Shrink an entry (or remove it) when the file gets shorter.
 */
export const LINE_ALLOWANCE = {};

const BASE = ['foundation', 'util'];
const STACK = ['sources', 'formats', 'raster', 'readers', 'mosaic'];
/** What each layer may import besides itself. */
export const MAY_IMPORT = {
  foundation: [],
  util: ['foundation'],
  geo: BASE,
  sources: [...BASE, 'geo'],
  formats: [...BASE, 'geo', ...STACK.slice(0, 1)],
  raster: [...BASE, 'geo', ...STACK.slice(0, 2)],
  readers: [...BASE, 'geo', ...STACK.slice(0, 3)],
  mosaic: [...BASE, 'geo', ...STACK.slice(0, 4)],
  search: [...BASE, 'geo', 'sources'],
  granule: [...BASE, 'geo', ...STACK, 'search'],
  config: [...BASE, 'geo', ...STACK, 'search', 'granule'],
  http: [...BASE, 'geo', ...STACK, 'search', 'granule', 'config'],
  cli: [...BASE, 'geo', ...STACK, 'search', 'granule', 'config', 'http'],
};

/** The layer of a file (path relative to src, '/'-separated), or null when no layer claims it. */
export function layerOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return rel === 'config.ts' ? 'config' : 'foundation';
  return Object.hasOwn(MAY_IMPORT, parts[0]) && parts[0] !== 'foundation' && parts[0] !== 'config' ? parts[0] : null;
}

const STATIC_IMPORT = /^[ \t]*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm;
const BARE_IMPORT = /^[ \t]*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /^(?![ \t]*(?:\*|\/\/)).*?\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Relative specifiers imported by `text` (each once). */
export function importsOf(text) {
  const specs = new Set();
  for (const re of [STATIC_IMPORT, BARE_IMPORT, DYNAMIC_IMPORT]) {
    for (const m of text.matchAll(re)) if (m[1].startsWith('.')) specs.add(m[1]);
  }
  return [...specs];
}

function listTs(dir, rel = '') {
  const out = [];
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listTs(dir, r));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(r);
  }
  return out.sort();
}

/** Every cycle group (strongly connected component of more than one file, or a self-import). */
function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const groups = [];
  let next = 0;
  const visit = (v) => {
    // iterative Tarjan: the graph can be deep enough to matter for recursion in big trees
    const work = [[v, 0]];
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [u, i] = top;
      const edges = graph.get(u) ?? [];
      if (i < edges.length) {
        top[1]++;
        const w = edges[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(u, Math.min(low.get(u), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(u)));
      }
      if (low.get(u) === index.get(u)) {
        const group = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          group.push(w);
        } while (w !== u);
        if (group.length > 1 || (graph.get(u) ?? []).includes(u)) groups.push(group.sort());
      }
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups.map((g) => shortestCycle(graph, g));
}

/** The shortest cycle through the group's first file, staying inside the group. */
function shortestCycle(graph, group) {
  const members = new Set(group);
  const start = group[0];
  const prev = new Map();
  const queue = [start];
  for (let k = 0; k < queue.length; k++) {
    const u = queue[k];
    for (const w of graph.get(u) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const cycle = [u];
        while (cycle[0] !== start) cycle.unshift(prev.get(cycle[0]));
        return { cycle: [...cycle, start], size: group.length };
      }
      if (!prev.has(w)) {
        prev.set(w, u);
        queue.push(w);
      }
    }
  }
  return { cycle: [start, start], size: group.length };
}

/** Checks the tree under `srcDir`; returns the problems found (empty when it is clean). */
export function checkLayers(srcDir) {
  const problems = [];
  const files = listTs(srcDir);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    const from = layerOf(file);
    if (from === null) problems.push(`${file}: folder '${file.split('/')[0]}' is not a layer (add it to MAY_IMPORT in scripts/check-layers.js)`);
    const edges = [];
    for (const spec of importsOf(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (target.startsWith('../')) {
        problems.push(`${file}: imports '${spec}', outside src/`);
        continue;
      }
      if (!known.has(target)) continue; // not a source file (JSON data, a missing file tsc reports)
      edges.push(target);
      const to = layerOf(target);
      if (from !== null && to !== null && to !== from && !MAY_IMPORT[from].includes(to)) {
        problems.push(`${file}: ${from} may not import ${to} ('${spec}')`);
      }
    }
    graph.set(file, edges);
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const allowed = Object.hasOwn(LINE_ALLOWANCE, file) ? LINE_ALLOWANCE[file] : MAX_LINES;
    if (lines > allowed) {
      problems.push(`${file}: ${lines} lines, over ${allowed}${allowed > MAX_LINES ? ' (its allowance: it may only shrink)' : ''}`);
    }
  }
  for (const { cycle, size } of cycles(graph)) {
    problems.push(`import cycle${size > cycle.length - 1 ? ` (one of several among ${size} files)` : ''}: ${cycle.join(' → ')}`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const srcDir = path.resolve(process.argv[2] ?? path.join(root, 'src'));
  const problems = checkLayers(srcDir);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem(s) in ${srcDir}:`);
    for (const p of problems) console.error(`  ${p}`);
    process.exit(1);
  }
  console.log(`check-layers: ${srcDir} is layered (imports point down, no cycles, no file over ${MAX_LINES} lines)`);
}
