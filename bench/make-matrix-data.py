#!/usr/bin/python3
"""Rasters of bench/matrix.ts, written to the directory given (a temp dir; nothing committed):

* utm_large.tif: 8192×8192 uint16 in UTM 32N (10 m, DEFLATE + predictor 2, 512² tiles, COG
  overviews down to 256), nodata 0 in a border;
* global_f32.tif: 4096×2048 float32 in EPSG:4326 covering the world, NaN nodata over "oceans"
  (floating-point predictor, 512² tiles, overviews).

The small UTM dataset is the committed demo (demo/rastile-demo.tif, 1024², UTM 32N).

Usage: /usr/bin/python3 bench/make-matrix-data.py <dir>
"""
import os
import subprocess
import sys

import numpy as np
import rasterio
from rasterio.transform import from_origin


def cog(src, dst, extra):
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "BLOCKSIZE=512", "-co", "OVERVIEW_RESAMPLING=NEAREST"] + extra + [src, dst], check=True)


def utm_large(out):
    path = os.path.join(out, "utm_large.tif")
    if os.path.exists(path):
        return
    size = 8192
    tmp = os.path.join(out, "utm_large_src.tif")
    rng = np.random.default_rng(3)
    waves = [(rng.normal() * 8, rng.normal() * 8, rng.uniform(0, 6.3)) for _ in range(6)]
    profile = dict(driver="GTiff", width=size, height=size, count=1, dtype="uint16", nodata=0, crs="EPSG:32632",
                   transform=from_origin(400000, 5250000, 10, 10), tiled=True, blockxsize=512, blockysize=512)
    x = np.arange(size) / size
    with rasterio.open(tmp, "w", **profile) as dst:
        for r0 in range(0, size, 512):
            y = (np.arange(r0, r0 + 512) / size)[:, None]
            z = np.zeros((512, size))
            for fx, fy, ph in waves:
                z += np.sin(2 * np.pi * (fx * x[None, :] + fy * y) + ph)
            z = 1500 + 250 * z + rng.normal(0, 5, (512, size))
            z[:, :100] = 0
            dst.write(np.round(z).astype("uint16"), 1, window=((r0, r0 + 512), (0, size)))
    cog(tmp, path, ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"])
    os.remove(tmp)


def global_f32(out):
    path = os.path.join(out, "global_f32.tif")
    if os.path.exists(path):
        return
    w, h = 4096, 2048
    tmp = os.path.join(out, "global_f32_src.tif")
    lon = np.linspace(-np.pi, np.pi, w)[None, :]
    lat = np.linspace(np.pi / 2, -np.pi / 2, h)[:, None]
    z = (20 * np.cos(lat) + 5 * np.sin(3 * lon) * np.cos(2 * lat)).astype("float32")
    z[(np.sin(2 * lon) * np.cos(3 * lat)) > 0.6] = np.nan
    profile = dict(driver="GTiff", width=w, height=h, count=1, dtype="float32", nodata=float("nan"), crs="EPSG:4326",
                   transform=from_origin(-180, 90, 360 / w, 180 / h), tiled=True, blockxsize=512, blockysize=512)
    with rasterio.open(tmp, "w", **profile) as dst:
        dst.write(z, 1)
    cog(tmp, path, ["-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3"])
    os.remove(tmp)


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    utm_large(out)
    global_f32(out)
    print(out)
