#!/usr/bin/python3
"""GDAL's PNG driver (libpng defaults, ZLEVEL 6) on the pixels of each PNG given: decoded by GDAL,
re-encoded in memory. Prints a JSON list of {"bytes", "cpu_ms"} (encode CPU, median of 3).

Our writer's lossless reductions are expanded back to the layout they came from, the one GDAL's
driver (and TiTiler) writes: an indexed PNG to RGBA (RGB without tRNS) through its colour table,
a grey PNG with a tRNS key (GDAL's nodata) to grey+alpha.

Usage: /usr/bin/python3 bench/png_gdal_sizes.py a.png b.png ...
"""
import json
import sys
import time
import warnings

import numpy as np
import rasterio
from rasterio.io import MemoryFile

warnings.simplefilter("ignore")


def has_trns(path):
    with open(path, "rb") as f:
        return b"tRNS" in f.read()


def pixels(path):
    """The samples as TiTiler/GDAL would write them: (bands, height, width)."""
    with rasterio.open(path) as src:
        data = src.read()
        if src.count == 1 and src.colorinterp[0].name == "palette":
            lut = np.zeros((256, 4), np.uint8)
            for i, rgba in src.colormap(1).items():
                lut[i] = rgba
            return np.moveaxis(lut[data[0]][:, :, : 4 if has_trns(path) else 3], -1, 0)
        if src.count == 1 and src.nodata is not None:
            alpha = (src.dataset_mask() > 0).astype(data.dtype) * np.iinfo(data.dtype).max
            return np.stack([data[0], alpha])
        return data


def main():
    out = []
    for p in sys.argv[1:]:
        data = pixels(p)
        count, h, w = data.shape
        cpus = []
        for _ in range(3):
            c0 = time.process_time()
            with MemoryFile() as mem:
                with mem.open(driver="PNG", width=w, height=h, count=count, dtype=data.dtype) as dst:
                    dst.write(data)
                size = len(mem.read())
            cpus.append((time.process_time() - c0) * 1000)
        out.append({"bytes": size, "cpu_ms": sorted(cpus)[1]})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
