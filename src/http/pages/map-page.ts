/**
 * The map viewer page. WebMercatorQuad: MapLibre GL JS (served from our own /static, no CDN).
 * Other tile matrix sets: a small canvas viewer that draws the TMS grid in its own CRS (MapLibre
 * only renders Web Mercator). Both fit the dataset, show the tiles and show point values on click.
 *
 * Both viewers expose `window.__tileStats` ({requested, loaded, failed}) and `window.__mapIdle()`
 * (true once the first view's tiles have settled) for the browser tests.
 */
import type { Bounds } from '../../geo/bounds.ts';
import type { TileMatrixLimits } from '../../geo/tms.ts';
import { shortNumber } from '../../util/short-number.ts';
import { escapeHtml } from './html.ts';

export interface MapPageInput {
  title: string;
  tms: Record<string, unknown>;
  tilejsonUrl: string;
  /** Point endpoint with `{lon},{lat}` placeholders and the layer's query string. */
  pointUrl: string;
  staticBase: string;
  /** Dataset bounds in the TMS CRS (x/y order); null when they cannot be computed. */
  datasetBounds: Bounds | null;
  /** The dataset's tile limits per zoom (as /tiles/{tms} gives them): the grid viewer requests no tile outside. */
  limits: TileMatrixLimits[];
  /** The rescale the page chose from the statistics (no `rescale` given, data wider than 8 bits): said on the page. */
  defaultRescale?: { min: number; max: number; band: string; dtype: string; statisticsUrl: string };
}

/** The note saying which rescale the page chose, where it comes from and why (a raw 16-bit/float tile looks dark). */
export function rescaleNote(r: NonNullable<MapPageInput['defaultRescale']>): string {
  const range = `${shortNumber(r.min)}–${shortNumber(r.max)}`;
  return (
    `<div id="rescale-note">Rescaled to ${escapeHtml(range)} from the dataset's <a href="${escapeHtml(r.statisticsUrl)}">statistics</a> ` +
    `(2nd–98th percentile of ${escapeHtml(r.band)}); add <code>&amp;rescale=min,max</code> to change. ` +
    `<small>Without it, ${escapeHtml(r.dtype)} values are drawn over the whole ${escapeHtml(r.dtype)} range, so tiles look almost black.</small></div>`
  );
}

/** JSON safe inside a <script type="application/json"> element. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

export function mapPage(input: MapPageInput): string {
  const mercator = input.tms['id'] === 'WebMercatorQuad';
  const config = {
    tilejsonUrl: input.tilejsonUrl,
    pointUrl: input.pointUrl,
    tms: input.tms,
    datasetBounds: input.datasetBounds,
    limits: input.limits,
  };
  const staticBase = escapeHtml(input.staticBase);
  const head = mercator ? `<link rel="stylesheet" href="${staticBase}/maplibre-gl.css"><script src="${staticBase}/maplibre-gl.js"></script>` : '';
  // `<link rel="icon" href="data:,">`: no favicon request (it would be a 404 in the console).
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)} — rastile</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${head}
<style>
html,body{margin:0;height:100%;font-family:system-ui,sans-serif}
#map{position:absolute;inset:0;background:#e8eef3}
#info{position:absolute;top:8px;left:8px;z-index:2;background:#fffe;padding:6px 10px;border-radius:4px;font-size:13px;max-width:40rem;box-shadow:0 1px 4px #0003}
#rescale-note{margin:4px 0;color:#333}#rescale-note small{display:block;color:#666}
#values{white-space:pre;font-family:ui-monospace,monospace}
canvas#grid{display:block;width:100%;height:100%;cursor:grab}
</style></head>
<body>
<div id="info"><b>${escapeHtml(input.title)}</b> · ${escapeHtml(String(input.tms['id']))}${input.defaultRescale ? rescaleNote(input.defaultRescale) : ''}<div id="values">click the map for point values</div></div>
<div id="map"></div>
<script type="application/json" id="config">${scriptJson(config)}</script>
<script>
const CONFIG = JSON.parse(document.getElementById('config').textContent);
const valuesEl = document.getElementById('values');
window.__tileStats = { requested: 0, loaded: 0, failed: 0 };
window.__mapIdle = () => false;
async function showPoint(x, y, extraQuery) {
  const url = CONFIG.pointUrl.replace('{lon}', String(x)).replace('{lat}', String(y)) + (extraQuery ? (CONFIG.pointUrl.includes('?') ? '&' : '?') + extraQuery : '');
  try {
    const r = await fetch(url);
    const body = await r.json();
    valuesEl.textContent = r.ok
      ? body.band_names.map((n, i) => n + ': ' + body.values[i]).join('\\n') + '\\n@ ' + x.toFixed(6) + ', ' + y.toFixed(6)
      : (typeof body.detail === 'string' ? body.detail : 'HTTP ' + r.status);
  } catch (e) { valuesEl.textContent = String(e); }
}
${mercator ? MAPLIBRE_SCRIPT : GRID_SCRIPT}
</script></body></html>`;
}

const MAPLIBRE_SCRIPT = `
(async () => {
  const tj = await (await fetch(CONFIG.tilejsonUrl)).json();
  const [w, s, e, n] = tj.bounds;
  const crosses = w > e; // antimeridian: MapLibre wants east > west, beyond 180 if need be
  const map = new maplibregl.Map({
    container: 'map',
    style: { version: 8, sources: {}, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#e8eef3' } }] },
    bounds: [[w, s], [crosses ? e + 360 : e, n]],
    fitBoundsOptions: { padding: 20 },
    attributionControl: false,
    preserveDrawingBuffer: true,
  });
  window.__map = map;
  map.on('dataloading', (ev) => { if (ev.tile) window.__tileStats.requested++; });
  map.on('data', (ev) => { if (ev.tile && ev.dataType === 'source') window.__tileStats.loaded++; });
  map.on('error', () => { window.__tileStats.failed++; });
  map.on('load', () => {
    const tileSize = Number(new URL(tj.tiles[0].replace(/[{}]/g, '')).searchParams.get('tilesize')) || 256;
    map.addSource('raster', { type: 'raster', tiles: tj.tiles, tileSize, ...(crosses ? {} : { bounds: tj.bounds }), minzoom: tj.minzoom, maxzoom: tj.maxzoom });
    map.addLayer({ id: 'raster', type: 'raster', source: 'raster', paint: { 'raster-fade-duration': 0 } });
    window.__mapIdle = () => map.loaded() && map.isSourceLoaded('raster') && map.areTilesLoaded();
  });
  map.on('click', (ev) => showPoint(ev.lngLat.lng, ev.lngLat.lat));
})();
`;

/**
 * Canvas viewer for any OGC tile matrix set: pans and zooms in the TMS CRS, picks the matrix
 * whose cell size matches the screen, draws the dataset's tiles it covers (only tiles inside the
 * dataset's tile limits and bounds, so no 404s; variable matrix widths honoured), asks the point
 * endpoint with coord_crs = the TMS CRS on click.
 */
const GRID_SCRIPT = `
(async () => {
  const tms = CONFIG.tms;
  const tj = await (await fetch(CONFIG.tilejsonUrl)).json();
  const template = tj.tiles[0];
  const inverted = ['y', 'lat', 'n'].includes(String((tms.orderedAxes || ['x'])[0]).toLowerCase());
  const limits = new Map(CONFIG.limits.map((l) => [l.tileMatrix, l]));
  const matrices = tms.tileMatrices
    .filter((m) => limits.has(m.id))
    .map((m) => ({ ...m, z: Number(m.id), ox: inverted ? m.pointOfOrigin[1] : m.pointOfOrigin[0], oy: inverted ? m.pointOfOrigin[0] : m.pointOfOrigin[1] }));
  if (matrices.length === 0) { valuesEl.textContent = 'no tiles for this dataset in ' + tms.id; return; }
  const tileSize = Number(new URL(template.replace(/[{}]/g, '')).searchParams.get('tilesize')) || 256;
  const canvas = document.createElement('canvas');
  canvas.id = 'grid';
  document.getElementById('map').appendChild(canvas);
  const ctx = canvas.getContext('2d');
  const cache = new Map();
  function coalesce(m, row) {
    for (const v of m.variableMatrixWidths || []) if (row >= v.minTileRow && row <= v.maxTileRow) return v.coalesce;
    return 1;
  }
  // Extent of the dataset's tiles at the finest zoom, intersected with the dataset bounds in the
  // TMS CRS (those can be unusable for far-away CRSs; the tile limits always are).
  // (With variable matrix widths the limit columns are those of coalesced tiles: the last one
  // spans up to coalesce columns.)
  const fine = matrices[matrices.length - 1], fl = limits.get(fine.id);
  const fsx = fine.cellSize * fine.tileWidth, fsy = fine.cellSize * fine.tileHeight;
  let cfMax = 1;
  for (let row = fl.minTileRow; row <= fl.maxTileRow; row++) cfMax = Math.max(cfMax, coalesce(fine, row));
  let extent = [fine.ox + fl.minTileCol * fsx, fine.oy - (fl.maxTileRow + 1) * fsy, fine.ox + (fl.maxTileCol + cfMax) * fsx, fine.oy - fl.minTileRow * fsy];
  const db = CONFIG.datasetBounds;
  if (db && db[0] < extent[2] && db[2] > extent[0] && db[1] < extent[3] && db[3] > extent[1]) {
    extent = [Math.max(db[0], extent[0]), Math.max(db[1], extent[1]), Math.min(db[2], extent[2]), Math.min(db[3], extent[3])];
  }
  let cx = (extent[0] + extent[2]) / 2, cy = (extent[1] + extent[3]) / 2, res = 1;
  let pending = 0;
  function fit() {
    canvas.width = canvas.clientWidth; canvas.height = canvas.clientHeight;
    res = Math.max((extent[2] - extent[0]) / canvas.width, (extent[3] - extent[1]) / canvas.height) * 1.1;
  }
  function draw() {
    const w = canvas.width, h = canvas.height;
    ctx.fillStyle = '#e8eef3'; ctx.fillRect(0, 0, w, h);
    const err = (k) => Math.abs(Math.log(k.cellSize * k.tileWidth / tileSize / res));
    const m = matrices.reduce((best, k) => (err(k) < err(best) ? k : best), matrices[0]);
    const lim = limits.get(m.id);
    const left = cx - (w / 2) * res, top = cy + (h / 2) * res, right = cx + (w / 2) * res, bottom = cy - (h / 2) * res;
    const sy = m.cellSize * m.tileHeight;
    const r0 = Math.max(lim.minTileRow, Math.floor((m.oy - top) / sy)), r1 = Math.min(lim.maxTileRow, m.matrixHeight - 1, Math.floor((m.oy - bottom) / sy));
    for (let row = r0; row <= r1; row++) {
      const cf = coalesce(m, row);
      const sx = m.cellSize * m.tileWidth * cf;
      const ty0 = m.oy - (row + 1) * sy, ty1 = m.oy - row * sy;
      if (ty1 <= extent[1] || ty0 >= extent[3]) continue;
      const c0 = Math.max(Math.floor(lim.minTileCol / cf), Math.floor((left - m.ox) / sx));
      const c1 = Math.min(Math.floor(lim.maxTileCol / cf), Math.ceil(m.matrixWidth / cf) - 1, Math.floor((right - m.ox) / sx));
      for (let k = c0; k <= c1; k++) {
        const tx0 = m.ox + k * sx;
        if (tx0 + sx <= extent[0] || tx0 >= extent[2]) continue;
        const url = template.replace('{z}', m.id).replace('{x}', k * cf).replace('{y}', row);
        let img = cache.get(url);
        if (!img) {
          img = new Image(); cache.set(url, img);
          window.__tileStats.requested++; pending++;
          img.onload = () => { window.__tileStats.loaded++; pending--; draw(); };
          img.onerror = () => { window.__tileStats.failed++; pending--; };
          img.src = url;
        }
        if (img.complete && img.naturalWidth) ctx.drawImage(img, (tx0 - left) / res, (top - ty1) / res, sx / res, sy / res);
      }
    }
  }
  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, y: e.clientY, cx, cy, moved: false }; });
  window.addEventListener('mousemove', (e) => { if (!drag) return; const dx = e.clientX - drag.x, dy = e.clientY - drag.y; if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true; cx = drag.cx - dx * res; cy = drag.cy + dy * res; draw(); });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved) {
      const rect = canvas.getBoundingClientRect();
      const x = cx + (e.clientX - rect.left - canvas.width / 2) * res, y = cy - (e.clientY - rect.top - canvas.height / 2) * res;
      showPoint(x, y, 'coord_crs=' + encodeURIComponent(tms.crs));
    }
    drag = null;
  });
  canvas.addEventListener('wheel', (e) => { e.preventDefault(); res *= e.deltaY > 0 ? 1.25 : 0.8; draw(); }, { passive: false });
  window.addEventListener('resize', () => { canvas.width = canvas.clientWidth; canvas.height = canvas.clientHeight; draw(); });
  window.__grid = { view: () => ({ cx, cy, res, width: canvas.width, height: canvas.height }) };
  fit(); draw();
  window.__mapIdle = () => window.__tileStats.requested > 0 && pending === 0;
})();
`;
