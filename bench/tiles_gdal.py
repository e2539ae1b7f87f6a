#!/usr/bin/python3
"""GDAL's own cost for the tiles of bench/tiles.ts, in-process, the way TiTiler renders them:
rio-tiler read (WarpedVRT for reprojected datasets, windowed read for same-CRS ones), numpy
rescale + colormap, GDAL PNG encode (zlevel 6). Datasets are opened once per fixture (cheaper than
TiTiler's open-per-request, so the comparison favours GDAL), then one warm-up pass over all tiles
like the server gets. GDAL's block cache is its default (5 % of RAM) unless GDAL_CACHEMAX is set.

Usage: /usr/bin/python3 bench/tiles_gdal.py <tiles.json> <passes>
Prints JSON: {"cpu_ms_per_tile", "wall_ms_per_tile", "tiles"}.
"""
import json
import math
import sys
import time
import warnings

import numpy as np
import rasterio
from rasterio import windows
from rasterio.enums import Resampling
from rasterio.io import MemoryFile
from rasterio.transform import from_bounds
from rasterio.vrt import WarpedVRT
from rasterio.warp import calculate_default_transform

warnings.simplefilter("ignore")
ORIGIN = 20037508.342789244


def tile_bounds(x, y, z):
    span = 2 * ORIGIN / 2 ** z
    left = -ORIGIN + x * span
    top = ORIGIN - y * span
    return left, top - span, left + span, top


def colormap(name):
    path = f"{sys.argv[3]}/{name}.json" if len(sys.argv) > 3 else None
    if path:
        return np.array(json.load(open(path)), dtype="uint8")
    return np.stack([np.arange(256)] * 3 + [np.full(256, 255)], axis=1).astype("uint8")


def render(data, mask, rescale, cmap):
    if rescale:
        lo, hi = rescale
        data = ((np.clip(data.astype("float64"), lo, hi) - lo) / (hi - lo) * 255).astype("uint8")
    if cmap is not None:
        rgba = cmap[data[0]]
        data = np.moveaxis(rgba[..., :3], -1, 0)
        mask = np.where(mask, rgba[..., 3], 0).astype("uint8")
    count, h, w = data.shape
    with MemoryFile() as mem:
        with mem.open(driver="PNG", width=w, height=h, count=count + 1, dtype="uint8", zlevel=6) as dst:
            dst.write(data.astype("uint8"), indexes=list(range(1, count + 1)))
            dst.write(mask.astype("uint8"), indexes=count + 1)
        return mem.read()


def read_tile(src, x, y, z, native_transform):
    bounds = tile_bounds(x, y, z)
    nodata = src.nodata
    if src.crs.to_epsg() == 3857:
        win = windows.from_bounds(*bounds, transform=src.transform)
        boundless = win.col_off < 0 or win.row_off < 0 or win.col_off + win.width > src.width or win.row_off + win.height > src.height
        arr = src.read(window=win, out_shape=(src.count, 256, 256), boundless=boundless, masked=True)
        mask = ~np.ma.getmaskarray(arr).all(axis=0)
        return arr.data, mask
    w, s, e, n = bounds
    out_t = from_bounds(w, s, e, n, 256, 256)
    w_res = out_t.a if abs(out_t.a) < abs(native_transform.a) else native_transform.a
    h_res = out_t.e if abs(out_t.e) < abs(native_transform.e) else native_transform.e
    vw, vh = max(1, round((e - w) / w_res)), max(1, round((s - n) / h_res))
    vt = from_bounds(w, s, e, n, vw, vh)
    params = dict(crs="EPSG:3857", transform=vt, width=vw, height=vh, resampling=Resampling.nearest, dtype=src.dtypes[0], add_alpha=True)
    if nodata is not None:
        params.update(nodata=nodata, src_nodata=nodata, add_alpha=False)
    with WarpedVRT(src, **params) as vrt:
        if nodata is None:
            vals = vrt.read(out_shape=(vrt.count, 256, 256))
            return vals[:-1], vals[-1] != 0
        data = vrt.read(out_shape=(src.count, 256, 256), indexes=list(range(1, src.count + 1)))
        mask = ~np.isnan(data[0]) if math.isnan(nodata) else data[0] != nodata
        return data, mask


def main():
    spec = json.load(open(sys.argv[1]))
    passes = int(sys.argv[2])
    opened = {}
    for ds in spec["datasets"]:
        src = rasterio.open(ds["path"])
        native = calculate_default_transform(src.crs, "EPSG:3857", src.width, src.height, *src.bounds)[0] if src.crs.to_epsg() != 3857 else src.transform
        cmap = colormap(ds["colormap"]) if ds.get("colormap") else None
        opened[ds["name"]] = (src, native, ds.get("rescale"), cmap)
    work = [(opened[t["dataset"]], t["x"], t["y"], t["z"]) for t in spec["tiles"]]
    for (src, native, rescale, cmap), x, y, z in work:  # warm-up pass, as the server gets
        d, m = read_tile(src, x, y, z, native)
        render(d, m, rescale, cmap)
    c0, w0 = time.process_time(), time.perf_counter()
    n = 0
    for _ in range(passes):
        for (src, native, rescale, cmap), x, y, z in work:
            d, m = read_tile(src, x, y, z, native)
            render(d, m, rescale, cmap)
            n += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    print(json.dumps({"cpu_ms_per_tile": cpu * 1000 / n, "wall_ms_per_tile": wall * 1000 / n, "tiles": n}))


if __name__ == "__main__":
    main()
