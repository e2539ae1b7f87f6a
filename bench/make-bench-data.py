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


if __name__ == "__main__":
    print(large_uint16())
    sys.stdout.flush()
