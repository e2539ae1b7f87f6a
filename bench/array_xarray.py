#!/usr/bin/python3
"""The xarray side of bench/array.ts: titiler-cmr's stack reading Web Mercator tiles of a remote
NetCDF-4 the way its xarray backend does (titiler-cmr.md section 6; rio-tiler's XarrayReader.tile).

* Opening: fsspec's HTTPFileSystem file (range reads, 8 MiB blocks like titiler-cmr's object-store
  reader) -> xarray.open_dataset(engine="h5netcdf", decode_times=True, decode_coords="all"), lazily
  indexed (no dask), then the variable, size-1 dimensions squeezed.
* A tile: rio-tiler does `da.rio.clip_box(*tile_bounds, crs=tms_crs)` then
  `da.rio.reproject(tms_crs, shape=(256, 256), transform=from_bounds(*tile_bounds), nearest)`.
  rioxarray is not packaged in Debian, so this does the same by hand: the tile bounds transformed
  to the data CRS (transform_bounds, densified as rioxarray does), the pixel window of those
  bounds on the grid's affine transform, `isel` of that window (h5netcdf reads only its chunks),
  `.values` (CF mask/scale decoding), then rasterio.warp.reproject to the tile. The result is
  serialised as .npy (the Node side asks for .npy tiles too, so neither side encodes an image).

Protocol (stdin/stdout, one JSON object per line): prints {"cold": {...}} after the open and the
first tile of <url> (cold process), waits for a line on stdin (the caller reads the range server's
counters then), does the same for <url2> (the same file under another name: a cold file in a warm
process), then runs one warm-up pass and `passes` timed passes over all tiles of <url> and prints
{"warm": {...}}.

  /usr/bin/python3 bench/array_xarray.py <url> <url2> <variable> <tiles.json> <passes>
"""
import io
import json
import math
import resource
import sys
import time

import fsspec
import numpy as np
import rasterio.warp
import xarray as xr
from rasterio.crs import CRS
from rasterio.enums import Resampling
from rasterio.transform import from_bounds

BLOCK = 8 * 1024 * 1024
MERC = CRS.from_epsg(3857)
GEO = CRS.from_epsg(4326)
HALF = math.pi * 6378137.0


def tile_bounds(z, x, y):
    size = 2 * HALF / 2 ** z
    return (-HALF + x * size, HALF - (y + 1) * size, -HALF + (x + 1) * size, HALF - y * size)


def open_array(url, variable):
    fs = fsspec.filesystem("http")
    f = fs.open(url, mode="rb", block_size=BLOCK, cache_type="block")
    ds = xr.open_dataset(f, engine="h5netcdf", decode_times=True, decode_coords="all")
    da = ds[variable]
    da = da.squeeze(drop=False)  # size-1 dimensions away (their scalar coordinates stay)
    lat, lon = da["lat"].values, da["lon"].values
    dy, dx = float(lat[1] - lat[0]), float(lon[1] - lon[0])
    # rioxarray's transform of a 1-D coordinate grid: the outer edge of the first pixel
    transform = rasterio.Affine(dx, 0, float(lon[0]) - dx / 2, 0, dy, float(lat[0]) - dy / 2)
    return f, da, transform


def read_tile(da, transform, z, x, y):
    bounds = tile_bounds(z, x, y)
    left, bottom, right, top = rasterio.warp.transform_bounds(MERC, GEO, *bounds, densify_pts=21)
    # the pixel window of those bounds on the grid (rounded outwards, clipped to the grid)
    inv = ~transform
    cols = [(inv * (xx, yy))[0] for xx in (left, right) for yy in (bottom, top)]
    rows = [(inv * (xx, yy))[1] for xx in (left, right) for yy in (bottom, top)]
    ny, nx = da.shape
    r0, r1 = max(0, math.floor(min(rows))), min(ny, math.ceil(max(rows)))
    c0, c1 = max(0, math.floor(min(cols))), min(nx, math.ceil(max(cols)))
    dst = np.full((256, 256), np.nan, dtype=np.float32)
    if r1 <= r0 or c1 <= c0:
        return dst
    part = da.isel(lat=slice(r0, r1), lon=slice(c0, c1))
    src = part.values.astype(np.float32, copy=False)
    src_transform = transform * rasterio.Affine.translation(c0, r0)
    rasterio.warp.reproject(src, dst, src_transform=src_transform, src_crs=GEO, src_nodata=np.nan,
                            dst_transform=from_bounds(*bounds, 256, 256), dst_crs=MERC, dst_nodata=np.nan,
                            resampling=Resampling.nearest)
    return dst


def npy(a):
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def cold(url, variable, first):
    """Open + first tile: wall ms and the opened array."""
    c0, t0 = time.process_time(), time.perf_counter()
    f, da, transform = open_array(url, variable)
    t1 = time.perf_counter()
    out = npy(read_tile(da, transform, first["z"], first["x"], first["y"]))
    t2, c2 = time.perf_counter(), time.process_time()
    return (f, da, transform), {"open_ms": (t1 - t0) * 1e3, "first_tile_ms": (t2 - t0) * 1e3, "cpu_ms": (c2 - c0) * 1e3, "bytes_out": len(out)}


def main():
    url, url2, variable, tiles_path, passes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    tiles = json.load(open(tiles_path))
    # cold process (modules imported, nothing opened yet), then cold file in the warm process
    (f, da, transform), first = cold(url, variable, tiles[0])
    print(json.dumps({"cold": first}), flush=True)
    sys.stdin.readline()
    (f2, _, _), second = cold(url2, variable, tiles[0])
    f2.close()
    print(json.dumps({"cold": second}), flush=True)
    sys.stdin.readline()
    valid = 0
    for t in tiles:  # warm-up: every block the tiles need is in fsspec's cache after this pass
        valid += int(np.isfinite(read_tile(da, transform, t["z"], t["x"], t["y"])).any())
    c0, t0 = time.process_time(), time.perf_counter()
    for _ in range(passes):
        for t in tiles:
            npy(read_tile(da, transform, t["z"], t["x"], t["y"]))
    n = passes * len(tiles)
    wall, cpu = (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"warm": {"cpu_ms_per_tile": cpu / n, "wall_ms_per_tile": wall / n, "tiles": n, "tiles_with_data": valid,
                               "peak_rss_mb": rss}}), flush=True)
    f.close()


if __name__ == "__main__":
    main()
