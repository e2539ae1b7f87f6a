#!/usr/bin/python3
"""Writes demo/rastile-demo-item.json: a STAC Item (1.0.0, proj and raster extensions) for the demo
DEM, its one asset `dem` with a relative href (resolved against the item, so it works wherever the
repository is and under the default local roots), and a `renders` entry for /stac/renders.
bbox/geometry: rasterio's transform_bounds of the COG to EPSG:4326 (densified edges).
Run with Debian's python: /usr/bin/python3 scripts/make-demo-item.py"""
import json
import os

import rasterio
from rasterio.warp import transform_bounds

demo = os.path.join(os.path.dirname(__file__), "..", "demo")
with rasterio.open(os.path.join(demo, "rastile-demo.tif")) as ds:
    w, s, e, n = (round(v, 6) for v in transform_bounds(ds.crs, "EPSG:4326", *ds.bounds, densify_pts=21))
    item = {
        "type": "Feature",
        "stac_version": "1.0.0",
        "stac_extensions": [
            "https://stac-extensions.github.io/projection/v1.1.0/schema.json",
            "https://stac-extensions.github.io/raster/v1.1.0/schema.json",
        ],
        "id": "rastile-demo",
        "bbox": [w, s, e, n],
        "geometry": {"type": "Polygon", "coordinates": [[[w, s], [e, s], [e, n], [w, n], [w, s]]]},
        "properties": {
            "datetime": "2024-01-01T00:00:00Z",
            "title": "rastile demo DEM (synthetic)",
            "proj:epsg": ds.crs.to_epsg(),
            "proj:shape": [ds.height, ds.width],
            "proj:transform": list(ds.transform)[:6],
            "renders": {
                "terrain": {"title": "Terrain colours", "assets": ["dem"], "rescale": [[0, 3000]], "colormap_name": "terrain"}
            },
        },
        "links": [],
        "assets": {
            "dem": {
                "href": "./rastile-demo.tif",
                "type": "image/tiff; application=geotiff; profile=cloud-optimized",
                "title": "Elevation (m)",
                "roles": ["data"],
                "raster:bands": [{"data_type": ds.dtypes[0], "nodata": ds.nodata, "unit": "m"}],
            }
        },
    }
with open(os.path.join(demo, "rastile-demo-item.json"), "w") as f:
    json.dump(item, f, indent=2)
    f.write("\n")
