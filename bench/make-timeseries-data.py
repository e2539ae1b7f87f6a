#!/usr/bin/python3
"""Generates the time-series benchmark data into bench/out/timeseries/ (not committed; re-run when missing):

* 10 granules over the same area of EPSG:32633, each one single-band uint16 COG (B04: 1024x1024 px
  of 30 m, DEFLATE + predictor 2, 256 px blocks, overviews, nodata 0), granule n covering the
  three days 2024-06-(3n+1) .. 2024-06-(3n+3): a 30-day P1D series reads each granule in 3 steps;
* ten more, G10 .. G19, on 2024-05-01 .. 2024-05-30 (three days each), outside the series:
  bench/timeseries.ts warms each fresh server up on G10 (code paths compiled and JIT-warm) without
  touching the measured granules' blocks, and in its `steady` state runs the scenario once over May
  before measuring it over June (files already there are kept: re-running adds the missing ones);
* granules.json: their CMR UMM-G records (GPolygon footprints; `{DATA_HOST}` in the https hrefs).

Run with Debian's Python: /usr/bin/python3 bench/make-timeseries-data.py
"""
import json
import os

from rasterio.transform import array_bounds, from_origin
from rasterio.warp import transform

from granule_cogs import CRS, RES, SIZE, X0, Y0, field, write_cog

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "timeseries")
GRANULES = 10
# G10 .. G19: the warm-up granules, 2024-05-01 .. 2024-05-30 (three days each), outside the series
WARM_GRANULES = 10


def main():
    items = []
    t = from_origin(X0, Y0, RES, RES)
    w, s, e, nn = array_bounds(SIZE, SIZE, t)
    xs, ys = transform(CRS, "EPSG:4326", [w, e, e, w, w], [s, s, nn, nn, s])
    for n in range(GRANULES + WARM_GRANULES):
        gr = f"BENCHTS.G{n:02d}.T33.v1.0"
        folder = os.path.join(OUT, "data", gr)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{gr}.B04.tif")
        if not os.path.exists(path):
            write_cog(path, (2000 + 300 * n + 800 * field(n)).astype("uint16"), t)
        items.append({
            "meta": {"concept-id": f"G9100000{n:02d}-BENCH", "native-id": gr, "collection-concept-id": "C910000001-BENCH",
                     "provider-id": "BENCH", "revision-id": 1},
            "umm": {
                "GranuleUR": gr,
                "TemporalExtent": {"RangeDateTime": {"BeginningDateTime": f"2024-06-{3 * n + 1:02d}T00:00:00.000Z",
                                                     "EndingDateTime": f"2024-06-{3 * n + 3:02d}T23:59:00.000Z"}}
                if n < GRANULES else
                {"RangeDateTime": {"BeginningDateTime": f"2024-05-{3 * (n - GRANULES) + 1:02d}T00:00:00.000Z",
                                   "EndingDateTime": f"2024-05-{3 * (n - GRANULES) + 3:02d}T23:59:00.000Z"}},
                "SpatialExtent": {"HorizontalSpatialDomain": {"Geometry": {"GPolygons": [
                    {"Boundary": {"Points": [{"Longitude": round(x, 8), "Latitude": round(y, 8)} for x, y in zip(xs, ys)]}}]}}},
                "RelatedUrls": [{"URL": f"{{DATA_HOST}}/{gr}/{gr}.B04.tif", "Type": "GET DATA"}],
                "DataGranule": {"ArchiveAndDistributionInformation": [{"Name": "Not provided"}]},
            },
        })
    collection = {"meta": {"concept-id": "C910000001-BENCH", "provider-id": "BENCH"},
                  "umm": {"ShortName": "BENCHTS", "SpatialExtent": {"HorizontalSpatialDomain": {"ResolutionAndCoordinateSystem": {
                      "HorizontalDataResolution": {"GenericResolutions": [{"XDimension": 30, "YDimension": 30, "Unit": "Meters"}]}}}}}}
    with open(os.path.join(OUT, "granules.json"), "w") as f:
        json.dump({"collection": collection, "items": items, "bounds_4326": [min(xs), min(ys), max(xs), max(ys)]}, f, indent=1)


if __name__ == "__main__":
    main()
