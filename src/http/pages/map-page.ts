/**
 * The map viewer page. WebMercatorQuad: MapLibre GL JS (served from our own /static, no CDN).
 * Other tile matrix sets: a small canvas viewer that draws the TMS grid in its own CRS (MapLibre
 * only renders Web Mercator). Both fit the dataset, show the tiles and show point values on click.
 */
import { escapeHtml } from './html.ts';

export interface MapPageInput {
  title: string;
  tms: Record<string, unknown>;
  tilejsonUrl: string;
  /** Point endpoint with `{lon},{lat}` placeholders and the layer's query string. */
  pointUrl: string;
  staticBase: string;
}

/** JSON safe inside a <script type="application/json"> element. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c');

export function mapPage(input: MapPageInput): string {
  const mercator = input.tms['id'] === 'WebMercatorQuad';
  const config = { tilejsonUrl: input.tilejsonUrl, pointUrl: input.pointUrl, tms: input.tms };
  const head = mercator
    ? `<link rel="stylesheet" href="${escapeHtml(input.staticBase)}/maplibre-gl.css"><script src="${escapeHtml(input.staticBase)}/maplibre-gl.js"></script>`
    : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(input.title)} — rastile</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${head}
<style>
html,body{margin:0;height:100%;font-family:system-ui,sans-serif}
#map{position:absolute;inset:0;background:#e8eef3}
#info{position:absolute;top:8px;left:8px;z-index:2;background:#fffe;padding:6px 10px;border-radius:4px;font-size:13px;max-width:40rem;box-shadow:0 1px 4px #0003}
#values{white-space:pre;font-family:ui-monospace,monospace}
canvas#grid{display:block;width:100%;height:100%;cursor:grab}
</style></head>
<body>
<div id="info"><b>${escapeHtml(input.title)}</b> · ${escapeHtml(String(input.tms['id']))}<div id="values">click the map for point values</div></div>
<div id="map"></div>
<script type="application/json" id="config">${scriptJson(config)}</script>
<script>
const CONFIG = JSON.parse(document.getElementById('config').textContent);
const valuesEl = document.getElementById('values');
window.__tileStats = { requested: 0, loaded: 0, failed: 0 };
async function showPoint(x, y, extraQuery) {
  const url = CONFIG.pointUrl.replace('{lon}', String(x)).replace('{lat}', String(y)) + (extraQuery ? (CONFIG.pointUrl.includes('?') ? '&' : '?') + extraQuery : '');
  try {
    const r = await fetch(url);
    const body = await r.json();
    valuesEl.textContent = r.ok
      ? body.band_names.map((n, i) => n + ': ' + body.values[i]).join('\\n') + '\\n@ ' + x.toFixed(6) + ', ' + y.toFixed(6)
      : (body.detail || r.status);
  } catch (e) { valuesEl.textContent = String(e); }
}
${mercator ? MAPLIBRE_SCRIPT : GRID_SCRIPT}
</script></body></html>`;
}

const MAPLIBRE_SCRIPT = `
(async () => {
  const tj = await (await fetch(CONFIG.tilejsonUrl)).json();
  const map = new maplibregl.Map({
    container: 'map',
    style: { version: 8, sources: {}, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#e8eef3' } }] },
    bounds: [[tj.bounds[0], tj.bounds[1]], [tj.bounds[2], tj.bounds[3]]],
    fitBoundsOptions: { padding: 20 },
    attributionControl: false,
    preserveDrawingBuffer: true,
  });
  window.__map = map;
  map.on('dataloading', (e) => { if (e.tile) window.__tileStats.requested++; });
  map.on('data', (e) => { if (e.tile && e.dataType === 'source') window.__tileStats.loaded++; });
  map.on('error', () => { window.__tileStats.failed++; });
  map.on('load', () => {
    map.addSource('raster', { type: 'raster', tiles: tj.tiles, tileSize: Number(new URL(tj.tiles[0].replace(/[{}]/g, '')).searchParams.get('tilesize')) || 256, bounds: tj.bounds, minzoom: tj.minzoom, maxzoom: tj.maxzoom });
    map.addLayer({ id: 'raster', type: 'raster', source: 'raster' });
  });
  map.on('click', (e) => showPoint(e.lngLat.lng, e.lngLat.lat));
})();
`;

/**
 * Canvas viewer for any OGC tile matrix set: pans and zooms in the TMS CRS, picks the matrix
 * whose cell size matches the screen, draws the tiles it covers (variable matrix widths honoured),
 * asks the point endpoint with coord_crs = the TMS CRS on click.
 */
const GRID_SCRIPT = `
(async () => {
  const tms = CONFIG.tms;
  const tj = await (await fetch(CONFIG.tilejsonUrl)).json();
  const template = tj.tiles[0];
  const inverted = ['y', 'lat', 'n'].includes(String((tms.orderedAxes || ['x'])[0]).toLowerCase());
  const matrices = tms.tileMatrices.map((m) => ({ ...m, z: Number(m.id), ox: inverted ? m.pointOfOrigin[1] : m.pointOfOrigin[0], oy: inverted ? m.pointOfOrigin[0] : m.pointOfOrigin[1] }));
  const tileSize = Number(new URL(template.replace(/[{}]/g, '')).searchParams.get('tilesize')) || 256;
  const canvas = document.createElement('canvas');
  canvas.id = 'grid';
  document.getElementById('map').appendChild(canvas);
  const ctx = canvas.getContext('2d');
  const cache = new Map();
  // Initial view: the dataset's tiles at its minzoom, from the tile set limits.
  const limitsUrl = template.split('/tiles/')[0] + '/tiles/' + tms.id + '?' + template.split('?')[1];
  const ts = await (await fetch(limitsUrl)).json();
  const lim = ts.tileMatrixSetLimits[0];
  const m0 = matrices.find((m) => m.id === lim.tileMatrix) || matrices[0];
  const span0 = m0.cellSize * m0.tileWidth;
  let view = {
    x0: m0.ox + lim.minTileCol * span0, x1: m0.ox + (lim.maxTileCol + 1) * span0,
    y1: m0.oy - lim.minTileRow * m0.cellSize * m0.tileHeight, y0: m0.oy - (lim.maxTileRow + 1) * m0.cellSize * m0.tileHeight,
  };
  let res = 1;
  let cx = (view.x0 + view.x1) / 2, cy = (view.y0 + view.y1) / 2;
  function resize() {
    canvas.width = canvas.clientWidth; canvas.height = canvas.clientHeight;
    res = Math.max((view.x1 - view.x0) / canvas.width, (view.y1 - view.y0) / canvas.height) * 1.1;
    draw();
  }
  function coalesce(m, row) {
    for (const v of m.variableMatrixWidths || []) if (row >= v.minTileRow && row <= v.maxTileRow) return v.coalesce;
    return 1;
  }
  function draw() {
    const w = canvas.width, h = canvas.height;
    ctx.fillStyle = '#e8eef3'; ctx.fillRect(0, 0, w, h);
    const zmin = Math.max(tj.minzoom, matrices[0].z), zmax = tj.maxzoom;
    let m = matrices.filter((k) => k.z >= zmin && k.z <= zmax).reduce((best, k) => (Math.abs(Math.log(k.cellSize * k.tileWidth / tileSize / res)) < Math.abs(Math.log(best.cellSize * best.tileWidth / tileSize / res)) ? k : best), matrices.find((k) => k.z === zmin) || matrices[0]);
    const left = cx - (w / 2) * res, top = cy + (h / 2) * res, right = cx + (w / 2) * res, bottom = cy - (h / 2) * res;
    const sy = m.cellSize * m.tileHeight;
    const r0 = Math.max(0, Math.floor((m.oy - top) / sy)), r1 = Math.min(m.matrixHeight - 1, Math.floor((m.oy - bottom) / sy));
    for (let row = r0; row <= r1; row++) {
      const cf = coalesce(m, row);
      const sx = m.cellSize * m.tileWidth * cf;
      const c0 = Math.max(0, Math.floor((left - m.ox) / sx)), c1 = Math.min(Math.ceil(m.matrixWidth / cf) - 1, Math.floor((right - m.ox) / sx));
      for (let k = c0; k <= c1; k++) {
        const col = k * cf;
        const url = template.replace('{z}', m.id).replace('{x}', col).replace('{y}', row);
        let img = cache.get(url);
        if (!img) {
          img = new Image(); img.crossOrigin = 'anonymous'; cache.set(url, img);
          window.__tileStats.requested++;
          img.onload = () => { window.__tileStats.loaded++; draw(); };
          img.onerror = () => { window.__tileStats.failed++; };
          img.src = url;
        }
        if (img.complete && img.naturalWidth) {
          const x = (m.ox + k * sx - left) / res, y = (top - (m.oy - row * sy)) / res;
          ctx.drawImage(img, x, y, sx / res, sy / res);
        }
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
  window.addEventListener('resize', resize);
  resize();
})();
`;
