#!/usr/bin/python3
"""rasterio/GDAL side of bench/statistics.ts: what TiTiler's GET /cog/statistics does for a
preview (max_size) or a full-resolution read, repeated N times; prints JSON timings.

Usage: /usr/bin/python3 bench/statistics_rasterio.py <file> <max_size> <repeats>
"""
import json
import math
import os
import sys
import time

import numpy as np
import rasterio

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "fixtures"))
from stats_oracle import reference_statistics  # noqa: E402  (rio-tiler's get_array_statistics semantics)


def size_for(max_size, h, w):
    if not max_size or max(h, w) < max_size:
        return h, w
    r = h / w
    return (max_size, math.ceil(max_size / r)) if r > 1 else (math.ceil(max_size * r), max_size)


def once(path, max_size):
    with rasterio.open(path) as src:
        h, w = size_for(max_size, src.height, src.width)
        data = src.read(1, out_shape=(h, w), masked=True)
        mask = data.data == src.nodata if src.nodata is not None else np.ma.getmaskarray(data)
        return reference_statistics(data.data.ravel(), mask.ravel())


def main():
    path, max_size, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    once(path, max_size)  # warm-up (page cache, GDAL block cache is per-dataset)
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(repeats):
        stats = once(path, max_size)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    print(json.dumps({"wall_ms": wall * 1000 / repeats, "cpu_ms": cpu * 1000 / repeats,
                      "mean": stats["mean"], "count": stats["count"]}))


if __name__ == "__main__":
    main()
