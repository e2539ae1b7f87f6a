#!/usr/bin/python3
"""Generates demo/rastile-demo.tif: a synthetic 1024x1024 DEM (uint16 metres) in UTM 32N,
DEFLATE + predictor, 256 px tiles, internal overviews, nodata 0 outside a round-cornered island.
Run with Debian's python (rasterio + numpy): /usr/bin/python3 scripts/make-demo.py"""
import os
import subprocess
import tempfile

import numpy as np
import rasterio
from rasterio.transform import from_origin

size = 1024
rng = np.random.default_rng(42)
y, x = np.mgrid[0:size, 0:size] / size

# fractal terrain: sum of random smooth waves, ridged, plus a central massif
z = np.zeros((size, size))
for octave in range(1, 8):
    f = 2 ** octave
    for _ in range(3):
        kx, ky = rng.normal(size=2) * f
        phase = rng.uniform(0, 2 * np.pi)
        z += np.sin(2 * np.pi * (kx * x + ky * y) + phase) / f ** 1.1
z = 1 - np.abs(z / np.abs(z).max())  # ridges
massif = np.exp(-(((x - 0.55) ** 2) / 0.08 + ((y - 0.45) ** 2) / 0.06))
dem = 150 + 2900 * (0.55 * z * massif + 0.45 * massif) + 60 * z
island = ((x - 0.5) ** 2 + (y - 0.5) ** 2) < 0.23
dem = np.where(island, dem, 0).astype("uint16")

out = os.path.join(os.path.dirname(__file__), "..", "demo", "rastile-demo.tif")
with tempfile.TemporaryDirectory() as tmp:
    src = os.path.join(tmp, "dem.tif")
    profile = dict(driver="GTiff", width=size, height=size, count=1, dtype="uint16", nodata=0,
                   crs="EPSG:32632", transform=from_origin(420000, 5180000, 60, 60))
    with rasterio.open(src, "w", **profile) as dst:
        dst.write(dem, 1)
        dst.set_band_description(1, "elevation")
        dst.update_tags(1, units="m")
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2",
                    "-co", "BLOCKSIZE=256", "-co", "OVERVIEW_RESAMPLING=AVERAGE", src, out], check=True)
print("wrote", os.path.abspath(out), os.path.getsize(out), "bytes")
