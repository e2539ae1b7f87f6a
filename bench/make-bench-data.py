#!/usr/bin/python3
"""Generates the benchmark rasters into bench/out/ (not committed; re-run when missing):

* large_uint16.tif: 10000x10000 uint16 DEM-like COG (DEFLATE + predictor 2, 512 px tiles,
  overviews), nodata 0 in a border, EPSG:32633.

Run with Debian's Python: /usr/bin/python3 bench/make-bench-data.py
"""
import os
import subprocess
import sys

import numpy as np
import rasterio
from rasterio.transform import from_origin

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out")
os.makedirs(OUT, exist_ok=True)


def large_uint16():
    path = os.path.join(OUT, "large_uint16.tif")
    if os.path.exists(path):
        return path
    tmp = os.path.join(OUT, "large_uint16_src.tif")
    size = 10000
    rng = np.random.default_rng(1)
    profile = dict(driver="GTiff", width=size, height=size, count=1, dtype="uint16", nodata=0, crs="EPSG:32633",
                   transform=from_origin(400000, 5600000, 10, 10), tiled=True, blockxsize=512, blockysize=512)
    x = np.arange(size) / size
    waves = [(rng.normal() * 8, rng.normal() * 8, rng.uniform(0, 6.3)) for _ in range(6)]
    with rasterio.open(tmp, "w", **profile) as dst:
        for r0 in range(0, size, 512):
            h = min(512, size - r0)
            y = (np.arange(r0, r0 + h) / size)[:, None]
            z = np.zeros((h, size))
            for fx, fy, ph in waves:
                z += np.sin(2 * np.pi * (fx * x[None, :] + fy * y) + ph)
            z = 1500 + 250 * z + rng.normal(0, 5, (h, size))
            z[:, :200] = 0
            if r0 < 300:
                z[: max(0, 300 - r0), :] = 0
            dst.write(z.clip(0, 65535).astype("uint16"), 1, window=rasterio.windows.Window(0, r0, size, h))
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2",
                    "-co", "BLOCKSIZE=512", "-co", "NUM_THREADS=2", tmp, path], check=True)
    os.remove(tmp)
    return path


def smooth(h, w, seed, scale):
    r = np.random.default_rng(seed)
    y = (np.arange(h) / h)[:, None]
    x = (np.arange(w) / w)[None, :]
    z = np.zeros((h, w), dtype="float32")
    for k in range(1, 7):
        fx, fy = r.normal(size=2) * k * 3
        z += (np.sin(2 * np.pi * (fx * x + fy * y) + r.uniform(0, 6.3)) / k).astype("float32")
    z -= z.min()
    return z / z.max() * scale


def cog(src, out, extra=()):
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "BLOCKSIZE=512", "-co", "NUM_THREADS=2", *extra, src, out],
                   check=True)
    os.remove(src)


def tile_fixtures():
    """Three rasters for bench/tiles.ts: a uint16 DEM in UTM, RGB uint8 in Web Mercator, float32 with NaN in 4326."""
    out = {}
    dem = os.path.join(OUT, "dem_uint16_utm.tif")
    if not os.path.exists(dem):
        n = 6000
        z = (smooth(n, n, 11, 3800) + np.random.default_rng(3).normal(0, 3, (n, n))).clip(1, 65535).astype("uint16")
        z[:, :300] = 0
        tmp = dem + ".src.tif"
        with rasterio.open(tmp, "w", driver="GTiff", width=n, height=n, count=1, dtype="uint16", nodata=0,
                           crs="EPSG:32632", transform=from_origin(380000, 5250000, 20, 20), tiled=True) as d:
            d.write(z, 1)
        cog(tmp, dem, ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"])
    out["dem"] = dem
    rgb = os.path.join(OUT, "rgb_uint8_3857.tif")
    if not os.path.exists(rgb):
        n = 6000
        bands = [(smooth(n, n, s, 230) + np.random.default_rng(s).integers(0, 20, (n, n))).astype("uint8") for s in (21, 22, 23)]
        tmp = rgb + ".src.tif"
        res = 20
        with rasterio.open(tmp, "w", driver="GTiff", width=n, height=n, count=3, dtype="uint8", crs="EPSG:3857",
                           transform=from_origin(1000000, 6100000, res, res), tiled=True, photometric="RGB") as d:
            for i, b in enumerate(bands, 1):
                d.write(b, i)
        cog(tmp, rgb, ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"])
    out["rgb"] = rgb
    f32 = os.path.join(OUT, "float32_nan_4326.tif")
    if not os.path.exists(f32):
        n = 6000
        f = (smooth(n, n, 31, 40) - 10).astype("float32")
        f[np.random.default_rng(5).random((n, n)) < 0.01] = np.nan
        f[:500, :800] = np.nan
        tmp = f32 + ".src.tif"
        with rasterio.open(tmp, "w", driver="GTiff", width=n, height=n, count=1, dtype="float32", nodata=float("nan"),
                           crs="EPSG:4326", transform=from_origin(5.0, 50.0, 0.0005, 0.0005), tiled=True) as d:
            d.write(f, 1)
        cog(tmp, f32, ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3"])
    out["f32"] = f32
    return out


if __name__ == "__main__":
    print(large_uint16())
    print(tile_fixtures())
    sys.stdout.flush()
