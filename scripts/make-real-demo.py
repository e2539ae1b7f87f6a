#!/usr/bin/python3
"""Generates demo/olinda-landsat7.tif: a real place beside the synthetic demo.

Source: `tif/L7_ETMs.tif` of the R package *stars* as Debian ships it (package `r-cran-stars`,
Apache-2.0 packaging): a 349x352 excerpt of a Landsat 7 ETM+ scene over Olinda and Recife,
Pernambuco, Brazil (SIRGAS 2000 / UTM 25S, EPSG:31985, 28.5 m pixels), bands 1-5 and 7 as
uint8. Landsat data is public domain (U.S. Geological Survey). We keep bands 1-4 (blue, green,
red, near infrared: true colour is bidx=3,2,1, NDVI is (b4-b3)/(b4+b3)) and write a COG
(DEFLATE + predictor, 256 px tiles, one internal overview) of ~400 KB.

Run with Debian's python (rasterio), with gdal-bin and dpkg-deb:

    /usr/bin/python3 scripts/make-real-demo.py [r-cran-stars_*.deb]

Without an argument the .deb is fetched with `apt-get download r-cran-stars` into a temporary
folder (no root needed; R is not installed). The committed file does not need the .deb.
"""
import glob
import os
import subprocess
import sys
import tempfile

import rasterio

BANDS = ["ETM+ band 1 (blue)", "ETM+ band 2 (green)", "ETM+ band 3 (red)", "ETM+ band 4 (near infrared)"]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "demo", "olinda-landsat7.tif")

with tempfile.TemporaryDirectory() as tmp:
    if len(sys.argv) > 1:
        deb = os.path.abspath(sys.argv[1])
    else:
        subprocess.run(["apt-get", "download", "r-cran-stars"], cwd=tmp, check=True)
        deb = glob.glob(os.path.join(tmp, "r-cran-stars_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(tmp, "x")], check=True)
    src = glob.glob(os.path.join(tmp, "x", "usr", "lib", "R", "site-library", "stars", "tif", "L7_ETMs.tif"))[0]
    bands = os.path.join(tmp, "bands.tif")
    subprocess.run(["gdal_translate", "-q", "-b", "1", "-b", "2", "-b", "3", "-b", "4", src, bands], check=True)
    with rasterio.open(bands, "r+") as dst:
        for i, d in enumerate(BANDS, start=1):
            dst.set_band_description(i, d)
        dst.update_tags(SOURCE="Landsat 7 ETM+ excerpt from the R package stars (tif/L7_ETMs.tif); USGS, public domain")
    subprocess.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2", "-co", "LEVEL=9",
                    "-co", "BLOCKSIZE=256", "-co", "OVERVIEW_RESAMPLING=AVERAGE", bands, OUT], check=True)
print("wrote", os.path.abspath(OUT), os.path.getsize(OUT), "bytes")
