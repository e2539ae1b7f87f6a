#!/usr/bin/python3
"""Writes demo/olinda-landsat7.json: a STAC Item for the real demo COG, for the README's /stac examples.

One asset, `landsat`, whose href `./olinda-landsat7.tif` is relative to the item (so it works
wherever the repository is, under the default local roots), with `eo:bands` naming the four
ETM+ bands (B1-B4: blue, green, red, nir) so `assets=landsat|bands=red,nir` works, and the
projection extension (EPSG code, shape and transform read from the COG with rasterio). Two
renders: true colour (bands 3,2,1 stretched to each band's 2nd-98th percentile of the full
image) and NDVI.

The acquisition date is not recorded in the source file; the image has no scan-line-corrector
gaps, so it was taken between Landsat 7's launch and the SLC failure: the item says so with
start_datetime/end_datetime.

Run with Debian's python (rasterio, numpy) after scripts/make-real-demo.py:

    /usr/bin/python3 scripts/make-demo-stac.py
"""
import json
import os

import numpy as np
import rasterio
from rasterio.warp import transform_bounds

DEMO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "demo")
COG = os.path.join(DEMO, "olinda-landsat7.tif")
OUT = os.path.join(DEMO, "olinda-landsat7.json")

# Landsat 7 ETM+ bands 1-4 (USGS band designations; centre and width in micrometres).
EO_BANDS = [
    {"name": "B1", "common_name": "blue", "description": "ETM+ band 1 (blue)", "center_wavelength": 0.485, "full_width_half_max": 0.07},
    {"name": "B2", "common_name": "green", "description": "ETM+ band 2 (green)", "center_wavelength": 0.56, "full_width_half_max": 0.08},
    {"name": "B3", "common_name": "red", "description": "ETM+ band 3 (red)", "center_wavelength": 0.66, "full_width_half_max": 0.06},
    {"name": "B4", "common_name": "nir", "description": "ETM+ band 4 (near infrared)", "center_wavelength": 0.835, "full_width_half_max": 0.13},
]

with rasterio.open(COG) as d:
    epsg = d.crs.to_epsg()
    west, south, east, north = transform_bounds(d.crs, "EPSG:4326", *d.bounds, densify_pts=21)
    shape = [d.height, d.width]
    transform = list(d.transform)[:6]
    data = d.read()
    stretch = [[int(np.percentile(data[b - 1], 2)), int(np.percentile(data[b - 1], 98))] for b in (3, 2, 1)]

r6 = lambda v: round(v, 6)  # noqa: E731 — ~0.1 m in degrees
bbox = [r6(west), r6(south), r6(east), r6(north)]
item = {
    "type": "Feature",
    "stac_version": "1.0.0",
    "stac_extensions": [
        "https://stac-extensions.github.io/eo/v1.1.0/schema.json",
        "https://stac-extensions.github.io/projection/v1.1.0/schema.json",
        "https://stac-extensions.github.io/render/v1.0.0/schema.json",
    ],
    "id": "olinda-landsat7",
    "bbox": bbox,
    "geometry": {
        "type": "Polygon",
        "coordinates": [[[bbox[0], bbox[1]], [bbox[2], bbox[1]], [bbox[2], bbox[3]], [bbox[0], bbox[3]], [bbox[0], bbox[1]]]],
    },
    "properties": {
        "title": "Landsat 7 ETM+ over Olinda and Recife, Brazil (rastile demo)",
        "description": "349x352 excerpt of a Landsat 7 ETM+ scene, bands 1-4, from tif/L7_ETMs.tif of the R package stars "
        "(USGS data, public domain). Acquisition date not recorded in the source; no SLC gaps, so between launch and the SLC failure.",
        "datetime": None,
        "start_datetime": "1999-04-15T00:00:00Z",
        "end_datetime": "2003-05-31T00:00:00Z",
        "platform": "landsat-7",
        "instruments": ["etm+"],
        "gsd": 28.5,
        "renders": {
            "truecolor": {"title": "True colour", "assets": ["landsat|bidx=3,2,1"], "rescale": stretch},
            "ndvi": {
                "title": "NDVI",
                "assets": ["landsat|bands=red,nir"],
                "expression": "(b2-b1)/(b2+b1)",
                "rescale": [[-1, 1]],
                "colormap_name": "rdylgn",
            },
        },
    },
    "links": [],
    "assets": {
        "landsat": {
            "href": "./olinda-landsat7.tif",
            "type": "image/tiff; application=geotiff; profile=cloud-optimized",
            "title": "ETM+ bands 1-4 (uint8)",
            "roles": ["data"],
            "eo:bands": EO_BANDS,
            "proj:epsg": epsg,
            "proj:shape": shape,
            "proj:transform": transform,
        }
    },
}
with open(OUT, "w") as f:
    json.dump(item, f, indent=2)
    f.write("\n")
print("wrote", os.path.abspath(OUT))
