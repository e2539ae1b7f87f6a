#!/usr/bin/python3
"""Writes the NetCDF-4 of bench/array.ts (not committed; reused when present):

/tmp/rastile-bench-array/sst.nc — a GHRSST-like global grid, 1 time step x 7200 x 14400
(0.025 degrees, latitude ascending like GAMSSA), `analysed_sst` int16 packed with
scale_factor/add_offset and a _FillValue over "land", chunks (1, 1000, 2000) (MUR uses
1 x 1023 x 2047), shuffle + deflate level 4. A smooth field plus noise, so that it does not
compress to nothing: about 100+ MB on disk.

Run with Debian's Python: /usr/bin/python3 bench/make-array-data.py [out_dir]
Prints the file's path.
"""
import os
import sys

import netCDF4
import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/rastile-bench-array"
NY, NX = 7200, 14400
CY, CX = 1000, 2000
FILL = -32768
SCALE, OFFSET = 0.001, 298.15


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, "sst.nc")
    if os.path.exists(path):
        print(path)
        return
    tmp = path + ".tmp"
    rng = np.random.default_rng(10)
    lat = -90 + 0.025 * (np.arange(NY) + 0.5)
    lon = -180 + 0.025 * (np.arange(NX) + 0.5)
    with netCDF4.Dataset(tmp, "w", format="NETCDF4") as ds:
        ds.createDimension("time", 1)
        ds.createDimension("lat", NY)
        ds.createDimension("lon", NX)
        t = ds.createVariable("time", "i4", ("time",))
        t.units = "seconds since 1981-01-01 00:00:00"
        t.standard_name = "time"
        t[:] = [1_290_000_000]
        vy = ds.createVariable("lat", "f4", ("lat",))
        vy.units = "degrees_north"
        vy.standard_name = "latitude"
        vy[:] = lat
        vx = ds.createVariable("lon", "f4", ("lon",))
        vx.units = "degrees_east"
        vx.standard_name = "longitude"
        vx[:] = lon
        v = ds.createVariable("analysed_sst", "i2", ("time", "lat", "lon"), zlib=True, complevel=4, shuffle=True,
                              chunksizes=(1, CY, CX), fill_value=FILL)
        v.units = "kelvin"
        v.long_name = "analysed sea surface temperature"
        v.scale_factor = np.float32(SCALE)
        v.add_offset = np.float32(OFFSET)
        v.valid_min = np.int16(-2000)
        v.valid_max = np.int16(30000)
        x = np.radians(lon)[None, :]
        for r0 in range(0, NY, CY):
            y = np.radians(lat[r0:r0 + CY])[:, None]
            kelvin = 273.15 + 28 * np.cos(y) ** 2 + 1.5 * np.sin(3 * x) * np.cos(5 * y) + rng.normal(0, 0.06, (len(y), NX))
            packed = np.round((kelvin - OFFSET) / SCALE).astype(np.int16)
            land = (np.sin(2 * x + 1) * np.cos(3 * y) > 0.55) | (np.abs(y) > np.radians(80))
            packed[land] = FILL
            v[0, r0:r0 + CY, :] = packed
    os.replace(tmp, path)
    print(path)


if __name__ == "__main__":
    main()
