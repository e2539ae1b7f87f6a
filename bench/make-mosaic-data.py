#!/usr/bin/python3
"""Generates the granule-mosaic benchmark data into bench/out/mosaic/ (not committed; re-run when missing):

* 4 granules in EPSG:32633 on a 2x2 layout overlapping by half a granule (every point of the
  central area is under 4 granules), each with 3 single-band uint16 COGs (B02, B03, B04:
  1024x1024 px of 30 m, DEFLATE + predictor 2, 256 px blocks, overviews, nodata 0);
* granules.json: their CMR UMM-G records (GPolygon footprints; `{DATA_HOST}` in the https hrefs,
  replaced by the data host's URL by bench/mosaic.ts).

Run with Debian's Python: /usr/bin/python3 bench/make-mosaic-data.py
"""
import json
import os

from rasterio.transform import array_bounds, from_origin
from rasterio.warp import transform

from granule_cogs import CRS, RES, SIZE, X0, Y0, field, write_cog

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "out", "mosaic")
BANDS = ["B02", "B03", "B04"]
HALF = SIZE * RES / 2


def main():
    items = []
    layout = [(0, 0), (1, 0), (0, 1), (1, 1)]
    for n, (cx, cy) in enumerate(layout, start=1):
        gr = f"BENCH.G{n}.T33.20240{n}01.v1.0"
        t = from_origin(X0 + cx * HALF, Y0 - cy * HALF, RES, RES)
        folder = os.path.join(OUT, "data", gr)
        os.makedirs(folder, exist_ok=True)
        for i, b in enumerate(BANDS):
            path = os.path.join(folder, f"{gr}.{b}.tif")
            if not os.path.exists(path):
                arr = (2000 + 1000 * n + 800 * field(10 * n + i)).astype("uint16")
                write_cog(path, arr, t)
        w, s, e, nn = array_bounds(SIZE, SIZE, t)
        xs, ys = transform(CRS, "EPSG:4326", [w, e, e, w, w], [s, s, nn, nn, s])
        items.append({
            "meta": {"concept-id": f"G90000000{n}-BENCH", "native-id": gr, "collection-concept-id": "C900000001-BENCH",
                     "provider-id": "BENCH", "revision-id": 1},
            "umm": {
                "GranuleUR": gr,
                "TemporalExtent": {"RangeDateTime": {"BeginningDateTime": f"2024-0{n}-01T00:00:00.000Z",
                                                     "EndingDateTime": f"2024-0{n}-01T00:01:00.000Z"}},
                "SpatialExtent": {"HorizontalSpatialDomain": {"Geometry": {"GPolygons": [
                    {"Boundary": {"Points": [{"Longitude": round(x, 8), "Latitude": round(y, 8)} for x, y in zip(xs, ys)]}}]}}},
                "RelatedUrls": [{"URL": f"{{DATA_HOST}}/{gr}/{gr}.{b}.tif", "Type": "GET DATA"} for b in BANDS],
                "DataGranule": {"ArchiveAndDistributionInformation": [{"Name": "Not provided"}]},
            },
        })
    with open(os.path.join(OUT, "granules.json"), "w") as f:
        json.dump({"collection": "C900000001-BENCH", "items": items}, f, indent=1)


if __name__ == "__main__":
    main()
