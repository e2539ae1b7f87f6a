"""Synthetic single-band uint16 COGs in EPSG:32633 shared by the granule benchmarks' data scripts
(make-mosaic-data.py, make-timeseries-data.py): 1024x1024 px of 30 m, DEFLATE + predictor 2,
256 px blocks, overviews, nodata 0."""
import os
import subprocess

import numpy as np
import rasterio

SIZE = 1024
RES = 30.0
CRS = "EPSG:32633"
X0, Y0 = 500000.0, 5000000.0


def field(seed):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:SIZE, 0:SIZE] / SIZE
    z = np.zeros((SIZE, SIZE))
    for k in range(1, 6):
        fx, fy = rng.normal(size=2) * k * 2
        z += np.sin(2 * np.pi * (fx * x + fy * y) + rng.uniform(0, 6.28)) / k
    return z


def write_cog(path, arr, t):
    tmp = path + ".src.tif"
    profile = dict(driver="GTiff", width=SIZE, height=SIZE, count=1, dtype="uint16", nodata=0, crs=CRS, transform=t)
    with rasterio.open(tmp, "w", **profile) as dst:
        dst.write(arr, 1)
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2",
                    "-co", "BLOCKSIZE=256", "-co", "OVERVIEWS=AUTO", tmp, path], check=True)
    os.remove(tmp)
