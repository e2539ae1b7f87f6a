/* global document, window, location, fetch, navigator, URLSearchParams, Option, maplibregl */
/*
 * The dataset viewer behind /cog/viewer and /stac/viewer: MapLibre GL (from our /static) and a
 * panel whose every pick rebuilds the tile URL and the map's source. Data come from the API
 * itself: bands from {prefix}/info, assets from /stac/assets, the default rescale (p2–p98) and
 * the histogram from {prefix}/statistics, colormaps from /colorMaps, algorithms from /algorithms,
 * point values from {prefix}/point. Initial picks may be given in the page's query string
 * (url, assets, bidx, expression, rescale, colormap_name, algorithm).
 * window.__viewer exposes the state for the browser tests.
 */
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const prefix = location.pathname.replace(/\/viewer\/?$/, ''); // '/cog' or '/stac', under any mount path
  const stac = /\/stac$/.test(prefix);
  const root = prefix.replace(/\/(cog|stac)$/, '');
  const query = new URLSearchParams(location.search);
  const TMS = 'WebMercatorQuad';

  const state = { url: query.get('url') || '', bands: [], algorithms: {}, stats: null, seq: 0, map: null, tileUrl: '' };
  window.__viewer = { state, ready: false, idle: () => false };

  const status = (text) => ($('status').textContent = text || '');

  /** An API URL (absolute) from a path under the server root and [name, value] pairs. */
  function api(path, params = []) {
    const u = new URL(path.startsWith('/') ? location.origin + path : path, location.href);
    for (const [k, v] of params) u.searchParams.append(k, v);
    return u.href;
  }

  async function getJson(path, params) {
    const r = await fetch(api(path, params));
    const body = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(typeof body.detail === 'string' ? body.detail : `HTTP ${r.status} from ${path}`);
    return body;
  }

  const bidxList = () =>
    $('bidx')
      .value.split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  /** The parameters choosing the data: url, then assets (STAC) or bidx, then expression. */
  function layerParams() {
    const out = [['url', state.url]];
    const bidx = bidxList();
    const allBands = bidx.join(',') === state.bands.map((_, i) => i + 1).join(',');
    if (stac) out.push(['assets', $('asset').value + (bidx.length && !allBands ? `|bidx=${bidx.join(',')}` : '')]);
    const expr = $('expression').value.trim();
    if (expr) out.push(['expression', expr]);
    else if (!stac) for (const b of bidx) out.push(['bidx', b]);
    return out;
  }

  /** How many bands the picks produce (a colormap needs exactly one). */
  function outputBands() {
    const alg = state.algorithms[$('algorithm').value];
    if (alg && alg.outputs && alg.outputs.nbands) return alg.outputs.nbands;
    return $('expression').value.trim() ? $('expression').value.split(';').length : bidxList().length || state.bands.length;
  }

  /** The render parameters: rescale, colormap (single-band output only), algorithm. */
  function renderParams() {
    const out = [];
    const lo = $('rescale-min').value,
      hi = $('rescale-max').value;
    if (lo !== '' && hi !== '') out.push(['rescale', `${lo},${hi}`]);
    const single = outputBands() === 1;
    $('colormap').disabled = !single;
    if (single && $('colormap').value) out.push(['colormap_name', $('colormap').value]);
    if ($('algorithm').value) out.push(['algorithm', $('algorithm').value]);
    return out;
  }

  /** Rebuilds the tile URL from the picks and points the map's source at it. */
  function rebuild() {
    // commas and pipes left readable in the URL to copy
    const qs = [...layerParams(), ...renderParams(), ['tilesize', '256']]
      .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',').replace(/%7C/g, '|')}`)
      .join('&');
    state.tileUrl = `${location.origin}${prefix}/tiles/${TMS}/{z}/{x}/{y}.png?${qs}`;
    $('tile-url').value = state.tileUrl;
    const cm = $('colormap').value;
    $('legend').hidden = !cm || $('colormap').disabled;
    if (cm)
      $('legend').src = api(`${root}/colorMaps/${cm}`, [
        ['f', 'png'],
        ['width', '256'],
        ['height', '14'],
      ]);
    const src = state.map && state.map.getSource('raster');
    if (src) src.setTiles([state.tileUrl]);
  }

  /** The default rescale: p2–p98 of the picked bands (all of them for RGB), or the algorithm's output range. */
  async function refreshStatistics() {
    const seq = ++state.seq;
    const alg = state.algorithms[$('algorithm').value];
    try {
      if (alg) {
        const o = alg.outputs || {};
        const range = o.min && o.max ? [o.min[0], o.max[0]] : null;
        setRescale(range, range ? `the ${$('algorithm').value} output range` : `${$('algorithm').value} output: no rescale needed`);
        state.stats = null;
      } else {
        const stats = await getJson(`${prefix}/statistics`, [...layerParams(), ['histogram_bins', '40']]);
        if (seq !== state.seq) return;
        const bands = Object.values(stats);
        state.stats = bands[0] || null;
        const lo = Math.min(...bands.map((b) => b.percentile_2)),
          hi = Math.max(...bands.map((b) => b.percentile_98));
        setRescale(lo < hi ? [lo, hi] : null, `p2–p98 of ${Object.keys(stats).join(', ')} from ${prefix.split('/').pop()}/statistics`);
      }
      status('');
    } catch (e) {
      if (seq === state.seq) status(String(e.message || e));
    }
    if (seq === state.seq) rebuild();
  }

  function setRescale(range, note) {
    $('rescale-min').value = range ? String(range[0]) : '';
    $('rescale-max').value = range ? String(range[1]) : '';
    $('rescale-note').textContent = `default rescale: ${note}`;
    drawHistogram();
  }

  /** Bars of the first band's histogram (counts over bin edges), the rescale range shaded. */
  function drawHistogram() {
    const c = $('histogram'),
      ctx = c.getContext('2d');
    ctx.clearRect(0, 0, c.width, c.height);
    const h = state.stats && state.stats.histogram;
    if (!h) return;
    const [counts, edges] = h;
    const x0 = edges[0],
      span = edges[edges.length - 1] - x0 || 1;
    const px = (v) => ((v - x0) / span) * c.width;
    const lo = Number($('rescale-min').value),
      hi = Number($('rescale-max').value);
    if ($('rescale-min').value !== '' && $('rescale-max').value !== '') {
      ctx.fillStyle = '#cfe3f7';
      ctx.fillRect(px(lo), 0, px(hi) - px(lo), c.height);
    }
    const top = Math.max(...counts) || 1;
    ctx.fillStyle = '#4a6f96';
    counts.forEach((n, i) => {
      const a = px(edges[i]),
        b = px(edges[i + 1]);
      const bar = (n / top) * (c.height - 2);
      ctx.fillRect(a, c.height - bar, Math.max(1, b - a - 1), bar);
    });
  }

  /** Fills the band picker with each band alone and, for 3 bands or more, RGB composites. */
  function fillBands(descriptions) {
    state.bands = descriptions;
    const opts = descriptions.map(([name, d], i) => [String(i + 1), d && d !== name ? `${name} · ${d}` : name]);
    if (descriptions.length >= 3) opts.push(['1,2,3', 'RGB 1,2,3'], ['3,2,1', 'RGB 3,2,1']);
    $('band').replaceChildren(...opts.map(([v, label]) => new Option(label, v)));
    const wanted = query.getAll('bidx').join(',') || (descriptions.length === 3 ? '1,2,3' : '1');
    query.delete('bidx');
    $('bidx').value = wanted;
    $('band').value = opts.some(([v]) => v === wanted) ? wanted : '';
  }

  async function loadBands() {
    const info = stac
      ? await getJson(`${prefix}/info`, [
          ['url', state.url],
          ['assets', $('asset').value],
        ])
      : await getJson(`${prefix}/info`, [['url', state.url]]);
    fillBands((stac ? Object.values(info)[0] : info).band_descriptions);
  }

  async function showPoint(lng, lat) {
    try {
      const p = await getJson(`${prefix}/point/${lng},${lat}`, layerParams());
      const names = p.band_names || p.values.map((_, i) => `b${i + 1}`);
      $('values').textContent = names.map((n, i) => `${n}: ${p.values[i]}`).join('\n') + `\n@ ${lng.toFixed(6)}, ${lat.toFixed(6)}`;
    } catch (e) {
      $('values').textContent = String(e.message || e);
    }
  }

  function startMap(tj) {
    const [w, s, e, n] = tj.bounds;
    const map = new maplibregl.Map({
      container: 'map',
      style: { version: 8, sources: {}, layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#e8eef3' } }] },
      bounds: [
        [w, s],
        [w > e ? e + 360 : e, n],
      ],
      fitBoundsOptions: { padding: 20 },
      attributionControl: false,
      canvasContextAttributes: { preserveDrawingBuffer: true }, // the canvas can be read back (tests, screenshots)
    });
    state.map = map;
    window.__viewer.map = map;
    map.on('load', () => {
      map.addSource('raster', {
        type: 'raster',
        tiles: [state.tileUrl],
        tileSize: 256,
        bounds: w > e ? undefined : tj.bounds,
        minzoom: tj.minzoom,
        maxzoom: tj.maxzoom,
      });
      map.addLayer({ id: 'raster', type: 'raster', source: 'raster', paint: { 'raster-fade-duration': 0 } });
      window.__viewer.idle = () => map.loaded() && map.isSourceLoaded('raster') && map.areTilesLoaded();
      window.__viewer.ready = true;
    });
    map.on('click', (ev) => showPoint(ev.lngLat.lng, ev.lngLat.lat));
  }

  async function start() {
    $('url').value = state.url;
    $('mode').textContent = stac ? 'STAC viewer' : 'COG viewer';
    document.title = `${state.url ? state.url.split('/').pop() + ' — ' : ''}rastile ${stac ? 'STAC' : 'COG'} viewer`;
    const [cms, algs] = await Promise.all([getJson(`${root}/colorMaps`), getJson(`${root}/algorithms`)]);
    $('colormap').append(...cms.colormaps.map((c) => new Option(c.id, c.id)));
    const defs = await Promise.all(algs.algorithms.map((a) => getJson(`${root}/algorithms/${a.id}`)));
    algs.algorithms.forEach((a, i) => (state.algorithms[a.id] = defs[i]));
    $('algorithm').append(...algs.algorithms.map((a) => new Option(a.id, a.id)));
    $('colormap').value = query.get('colormap_name') || '';
    $('algorithm').value = query.get('algorithm') || '';
    $('expression').value = query.get('expression') || '';
    if (!state.url) return status('Give a dataset url to view it.');
    if (stac) {
      $('asset-row').hidden = false;
      const assets = await getJson(`${prefix}/assets`, [['url', state.url]]);
      $('asset').replaceChildren(...assets.map((a) => new Option(a, a)));
      const wanted = (query.get('assets') || '').split('|')[0];
      if (assets.includes(wanted)) $('asset').value = wanted;
    }
    await loadBands();
    const tj = await getJson(`${prefix}/${TMS}/tilejson.json`, [['url', state.url], ...(stac ? [['assets', $('asset').value]] : [])]);
    const given = (query.get('rescale') || '').split(',');
    if (given.length === 2) {
      state.stats = null;
      setRescale(given.map(Number), 'from the page URL');
      rebuild();
    } else await refreshStatistics();
    startMap(tj);
    $('layer').disabled = false;
  }

  // Every pick rebuilds the tile URL; picks that change the data also refresh the default rescale.
  $('band').addEventListener('change', () => {
    $('bidx').value = $('band').value;
    refreshStatistics();
  });
  $('bidx').addEventListener('change', () => {
    $('band').value = $('bidx').value.replace(/\s/g, '');
    refreshStatistics();
  });
  $('expression').addEventListener('change', refreshStatistics);
  $('algorithm').addEventListener('change', refreshStatistics);
  $('asset').addEventListener('change', () => loadBands().then(refreshStatistics, (e) => status(e.message)));
  for (const id of ['rescale-min', 'rescale-max']) $(id).addEventListener('change', () => (drawHistogram(), rebuild()));
  $('colormap').addEventListener('change', rebuild);
  $('copy').addEventListener('click', () => {
    $('tile-url').select();
    if (navigator.clipboard) navigator.clipboard.writeText(state.tileUrl).catch(() => undefined);
  });
  $('open').addEventListener('submit', (ev) => {
    ev.preventDefault();
    location.search = new URLSearchParams([['url', $('url').value.trim()]]).toString();
  });
  start().catch((e) => status(String(e.message || e)));
})();
