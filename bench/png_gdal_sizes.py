#!/usr/bin/python3
"""GDAL's PNG driver (libpng defaults, ZLEVEL 6) on the pixels of each PNG given: decoded by GDAL,
re-encoded in memory. Prints a JSON list of {"bytes", "cpu_ms"} (encode CPU, median of 3).

Usage: /usr/bin/python3 bench/png_gdal_sizes.py a.png b.png ...
"""
import json
import sys
import time
import warnings

import rasterio
from rasterio.io import MemoryFile

warnings.simplefilter("ignore")
out = []
for p in sys.argv[1:]:
    with rasterio.open(p) as src:
        data = src.read()
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
