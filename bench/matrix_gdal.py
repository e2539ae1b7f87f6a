#!/usr/bin/python3
"""GDAL's side of bench/matrix.ts: each request kind done in-process the way rio-tiler/TiTiler
does it on rasterio 1.3 / GDAL 3.6.2 (WarpedVRT read onto the same grid as rio-tiler's, or a
windowed read for the same CRS; numpy rescale/colormap/statistics; GDAL PNG encode), datasets
opened once (cheaper than TiTiler's open per request). One warm-up, then the median CPU
(process_time) of `runs` (one run when the first takes over 3 s).

Usage: /usr/bin/python3 bench/matrix_gdal.py <matrix.json>
Prints a JSON list of {"cpu_ms", "png_bytes"} in the order of the kinds.
"""
import json
import math
import sys
import time
import warnings

import numpy as np
import rasterio
from rasterio import features, windows
from rasterio.crs import CRS
from rasterio.enums import Resampling
from rasterio.io import MemoryFile
from rasterio.transform import from_bounds
from rasterio.vrt import WarpedVRT
from rasterio.warp import calculate_default_transform, transform_bounds, transform_geom, transform as warp_transform

warnings.simplefilter("ignore")
ORIGIN = 20037508.342789244
OPEN = {}
NATIVE = {}


def ds(path):
    if path not in OPEN:
        OPEN[path] = rasterio.open(path)
    return OPEN[path]


def tile_bounds(tms, z, x, y):
    if tms == "WorldCRS84Quad":
        span = 180 / 2 ** z
        return -180 + x * span, 90 - (y + 1) * span, -180 + (x + 1) * span, 90 - y * span
    span = 2 * ORIGIN / 2 ** z
    left, top = -ORIGIN + x * span, ORIGIN - y * span
    return left, top - span, left + span, top


def native(src, crs):
    key = (src.name, crs.to_string())
    if key not in NATIVE:
        b = list(src.bounds)
        w, h = src.width, src.height
        if src.crs.to_epsg() == 4326 and crs.to_epsg() == 3857:
            b[1], b[3] = max(b[1], -85.06), min(b[3], 85.06)
            win = windows.from_bounds(*b, transform=src.transform)
            h, w = round(win.height), round(win.width)
        NATIVE[key] = calculate_default_transform(src.crs, crs, w, h, *b)[0]
    return NATIVE[key]


def warped_read(src, bounds, crs, width, height):
    """rio-tiler part(): VRT pixel = the finer of native and output, WarpedVRT, read(out_shape)."""
    t = native(src, crs)
    w, s, e, n = bounds
    out = from_bounds(w, s, e, n, width, height)
    w_res = out.a if abs(t.a) > abs(out.a) else t.a
    h_res = out.e if abs(t.e) > abs(out.e) else t.e
    vw, vh = max(1, round((e - w) / w_res)), max(1, round((s - n) / h_res))
    params = dict(crs=crs, transform=from_bounds(w, s, e, n, vw, vh), width=vw, height=vh, resampling=Resampling.nearest, dtype=src.dtypes[0])
    nodata = src.nodata
    if nodata is not None:
        params.update(nodata=nodata, src_nodata=nodata, add_alpha=False)
    else:
        params.update(add_alpha=True)
    with WarpedVRT(src, **params) as vrt:
        if nodata is None:
            vals = vrt.read(out_shape=(vrt.count, height, width))
            return vals[:-1], vals[-1] != 0
        data = vrt.read(out_shape=(src.count, height, width), indexes=list(range(1, src.count + 1)))
        return data, (~np.isnan(data[0]) if math.isnan(nodata) else data[0] != nodata)


def window_read(src, bounds, width, height):
    win = windows.from_bounds(*bounds, transform=src.transform)
    boundless = win.col_off < 0 or win.row_off < 0 or win.col_off + win.width > src.width or win.row_off + win.height > src.height
    arr = src.read(window=win, out_shape=(src.count, height, width), boundless=boundless, masked=True)
    return arr.data, ~np.ma.getmaskarray(arr).all(axis=0)


def png(data, mask, rescale=None, cmap=False):
    if rescale:
        lo, hi = rescale
        data = ((np.clip(np.nan_to_num(data.astype("float64")), lo, hi) - lo) / (hi - lo) * 255).astype("uint8")
    if cmap:
        v = data[0].astype("float64") / 255
        data = np.stack([(v * 255), (np.sqrt(v) * 255), ((1 - v) * 255)]).astype("uint8")
    dtype = data.dtype if data.dtype in (np.uint8, np.uint16) else np.uint8
    alpha = (mask.astype(dtype) * np.iinfo(dtype).max).astype(dtype)
    count, h, w = data.shape
    with MemoryFile() as mem:
        with mem.open(driver="PNG", width=w, height=h, count=count + 1, dtype=dtype) as dst:
            dst.write(data.astype(dtype), indexes=list(range(1, count + 1)))
            dst.write(alpha, indexes=count + 1)
        return len(mem.read())


def hillshade(data, mask):
    z = data[0].astype("float64")
    gy, gx = np.gradient(z, 10, 10)
    slope = np.pi / 2 - np.arctan(np.hypot(gx, gy))
    aspect = np.arctan2(-gx, gy)
    az, alt = np.radians(315), np.radians(45)
    hs = np.sin(alt) * np.sin(slope) + np.cos(alt) * np.cos(slope) * np.cos(az - aspect)
    return (255 * (hs + 1) / 2).astype("uint8")[None, 3:-3, 3:-3], mask[3:-3, 3:-3]


def stats(data, mask):
    v = data[0][mask]
    v = v[np.isfinite(v)] if v.dtype.kind == "f" else v
    if v.size == 0:
        return
    u, c = np.unique(v, return_counts=True)
    np.histogram(v, bins=10)
    [v.min(), v.max(), v.mean(), v.sum(), v.std(), np.median(v), np.percentile(v, 2), np.percentile(v, 98), u[c.argmax()], u[c.argmin()]]


def size_for(src, max_size):
    if not max_size:
        return src.width, src.height
    r = max(src.width, src.height) / max_size
    return max(1, round(src.width / r)), max(1, round(src.height / r))


def run(k):
    src = ds(k["file"])
    op = k["op"]
    if op == "tile":
        crs = CRS.from_epsg(4326 if k["tms"] == "WorldCRS84Quad" else 3857)
        b = tile_bounds(k["tms"], k["z"], k["x"], k["y"])
        extra = k.get("extra", "")
        size = k["size"] + (6 if "hillshade" in extra else 0)
        if "hillshade" in extra:
            span = (b[2] - b[0]) / k["size"] * 3
            b = (b[0] - span, b[1] - span, b[2] + span, b[3] + span)
        data, mask = window_read(src, b, size, size) if src.crs == crs else warped_read(src, b, crs, size, size)
        if "hillshade" in extra:
            data, mask = hillshade(data, mask)
            return png(data, mask)
        return png(data, mask, rescale=(-10, 30) if "rescale" in extra else None, cmap="colormap" in extra)
    if op == "bbox":
        data, mask = warped_read(src, k["bounds"], CRS.from_epsg(4326), k["width"], k["height"])
        return png(data, mask)
    if op == "preview":
        if k.get("dst_crs"):
            crs = CRS.from_epsg(k["dst_crs"])
            t, w, h = calculate_default_transform(src.crs, crs, src.width, src.height, *src.bounds)
            bounds = (t.c, t.f + h * t.e, t.c + w * t.a, t.f)
            r = max(w, h) / k["size"]
            data, mask = warped_read(src, bounds, crs, max(1, round(w / r)), max(1, round(h / r)))
        else:
            w, h = size_for(src, k["size"])
            data, mask = window_read(src, src.bounds, w, h)
        return png(data, mask, rescale=k.get("rescale"))
    if op == "stats":
        w, h = size_for(src, k["size"])
        data, mask = window_read(src, src.bounds, w, h)
        stats(data, mask)
        return None
    if op == "point":
        xs, ys = warp_transform("EPSG:4326", src.crs, [k["lon"]], [k["lat"]])
        list(src.sample([(xs[0], ys[0])]))
        return None
    if op == "feature_stats":
        # rio-tiler's POST statistics: the part read in the geometry's CRS (dst_crs = coord_crs,
        # EPSG:4326) at max_size, the cutline, and get_coverage_array (all-touched rasterize on
        # a cover_scale=10 finer grid, block-summed) as statistics weights
        geom = {"type": "Polygon", "coordinates": [k["polygon"]]}
        b = features.bounds(geom)
        crs = CRS.from_epsg(4326)
        t = native(src, crs)
        wn, hn = (b[2] - b[0]) / t.a, (b[3] - b[1]) / -t.e
        r = max(wn, hn) / k["size"]
        w, h = max(1, round(wn / r)), max(1, round(hn / r))
        data, mask = warped_read(src, b, crs, w, h)
        tr = from_bounds(*b, w, h)
        inside = features.geometry_mask([geom], out_shape=(h, w), transform=tr, invert=True, all_touched=True)
        s = 10
        cover = features.rasterize([geom], out_shape=(h * s, w * s), transform=from_bounds(*b, w * s, h * s), all_touched=True, fill=0, default_value=1, dtype="uint8")
        cover = cover.reshape(h, s, w, s).sum(-1, dtype="uint32").sum(1) / s**2
        mask = mask & inside
        v = data[0][mask]
        wt = cover[mask]
        np.average(v, weights=wt)
        stats(data, mask)
        return None
    if op in ("feature", "feature_stats"):
        geom = transform_geom("EPSG:4326", src.crs, {"type": "Polygon", "coordinates": [k["polygon"]]})
        b = features.bounds(geom)
        if op == "feature":
            w, h = k["width"], k["height"]
        else:
            win = windows.from_bounds(*b, transform=src.transform)
            r = max(win.width, win.height) / k["size"]
            w, h = max(1, round(win.width / r)), max(1, round(win.height / r))
        data, mask = window_read(src, b, w, h)
        inside = features.geometry_mask([geom], out_shape=(h, w), transform=from_bounds(*b, w, h), invert=True)
        mask = mask & inside
        if op == "feature":
            return png(data, mask)
        stats(data, mask)
        return None
    raise ValueError(op)


def main():
    spec = json.load(open(sys.argv[1]))
    out = []
    for k in spec["kinds"]:
        size = run(k)  # warm-up
        cpus = []
        for _ in range(spec["runs"]):
            c0 = time.process_time()
            run(k)
            cpus.append((time.process_time() - c0) * 1000)
            if cpus[0] > 3000:
                break
        cpus.sort()
        out.append({"cpu_ms": cpus[len(cpus) // 2], "png_bytes": size})
        print(k["name"], cpus[len(cpus) // 2], file=sys.stderr)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
