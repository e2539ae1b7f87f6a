import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRastileError } from '../../../src/errors.ts';
import { openArrayGrid } from '../../../src/formats/array/open-array-grid.ts';
import { transformPoint } from '../../../src/geo/transform.ts';
import { WGS84 } from '../../../src/geo/crs.ts';
import { lonLat, memoryFile, newChunkCache, range, type VarSpec } from './memory-array.ts';

const badRequest = (re: RegExp) => (e: unknown) => isRastileError(e, 'BadRequest') && re.test(e.message);

/** A global 45° grid (8 lon × 4 lat) whose value is lat*1000 + lon (source coordinates). */
function globe(lons: number[], lats: number[], extra: Partial<VarSpec> = {}) {
  const data: number[] = [];
  for (const la of lats) for (const lo of lons) data.push(la * 1000 + lo);
  return memoryFile({
    variables: [
      ...lonLat(lons, lats),
      { name: 'v', dims: ['lat', 'lon'], shape: [lats.length, lons.length], chunks: [2, 3], dtype: 'float64', data, ...extra },
    ],
  });
}

async function readAll(ds: Awaited<ReturnType<typeof openArrayGrid>>, band = 1) {
  return (await ds.readWindow(0, { col: 0, row: 0, width: ds.width, height: ds.height }, [band])).bands[0];
}

test('0–360 longitudes are wrapped to −180…180 (columns reordered), ascending latitudes flipped north-up', async () => {
  const lons = range(22.5, 8, 45);
  const lats = range(-67.5, 4, 45);
  const ds = await openArrayGrid(globe(lons, lats), { variables: ['v'] }, newChunkCache());
  assert.deepEqual(ds.bounds, [-180, -90, 180, 90]);
  assert.deepEqual(ds.geoTransform, [-180, 45, 0, 90, 0, -45]);
  assert.equal(ds.crs.epsg, 4326);
  const values = await readAll(ds);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 8; c++) {
      const lon = -157.5 + 45 * c;
      const lat = 67.5 - 45 * r;
      assert.equal(values[r * 8 + c], lat * 1000 + (lon < 0 ? lon + 360 : lon), `r${r} c${c}`);
    }
  // A window across the seam (Greenwich: source columns 7 then 0).
  const w = await ds.readWindow(0, { col: 3, row: 1, width: 2, height: 2 }, [1]);
  assert.deepEqual(Array.from(w.bands[0]), [22.5 * 1000 + 337.5, 22.5 * 1000 + 22.5, -22.5 * 1000 + 337.5, -22.5 * 1000 + 22.5]);
});

test('descending latitudes and −180…180 longitudes are read as stored; transposed (lon, lat) dims too', async () => {
  const lons = range(-157.5, 8, 45);
  const lats = range(67.5, 4, -45);
  const ds = await openArrayGrid(globe(lons, lats), { variables: ['v'] }, newChunkCache());
  const values = await readAll(ds);
  assert.deepEqual(
    Array.from(values),
    lats.flatMap((la) => lons.map((lo) => la * 1000 + lo)),
  );
  const data: number[] = [];
  for (const lo of lons) for (const la of lats) data.push(la * 1000 + lo);
  const t = memoryFile({ variables: [...lonLat(lons, lats), { name: 'v', dims: ['lon', 'lat'], shape: [8, 4], chunks: [3, 3], dtype: 'float64', data }] });
  const tds = await openArrayGrid(t, { variables: ['v'] }, newChunkCache());
  assert.deepEqual(Array.from(await readAll(tds)), Array.from(values));
});

function cube(calendar = 'noleap') {
  const lons = range(-157.5, 8, 45);
  const lats = range(67.5, 4, -45);
  const times = [0, 31, 59];
  const data = Array.from({ length: 3 * 4 * 8 }, (_, i) => Math.floor(i / 32) * 100 + (i % 32));
  return memoryFile({
    variables: [
      ...lonLat(lons, lats),
      { name: 'time', dims: ['time'], shape: [3], dtype: 'float64', data: times, attrs: { units: 'days since 2000-01-01', calendar } },
      { name: 'lev', dims: ['lev'], shape: [1], dtype: 'float64', data: [1000] },
      {
        name: 'sst',
        dims: ['time', 'lev', 'lat', 'lon'],
        shape: [3, 1, 4, 8],
        chunks: [1, 1, 4, 4],
        dtype: 'int16',
        data,
        attrs: { long_name: 'sea surface temperature' },
      },
      { name: 'other', dims: ['lat', 'lon'], shape: [4, 8], dtype: 'float32' },
      { name: 'small', dims: ['lat', 'lon'], shape: [2, 8], dtype: 'float32' },
    ],
  });
}

test('sel: exact, nearest, pad/ffill, backfill/bfill on a CF time axis; decode_times=false takes raw numbers', async () => {
  const file = cube();
  const cache = newChunkCache();
  const first = async (sel: string[], decodeTimes = true) => (await readAll(await openArrayGrid(file, { variables: ['sst'], sel, decodeTimes }, cache)))[0];
  assert.equal(await first(['time=2000-02-01']), 100);
  assert.equal(await first(['time=2000-02-01T00:00:00+00:00']), 100);
  assert.equal(await first(['time=nearest::2000-02-20']), 200);
  assert.equal(await first(['time=pad::2000-02-20']), 100);
  assert.equal(await first(['time=ffill::2000-02-20']), 100);
  assert.equal(await first(['time=backfill::2000-01-15']), 100);
  assert.equal(await first(['time=bfill::2000-01-15']), 100);
  assert.equal(await first(['time=nearest::1990-01-01']), 0);
  assert.equal(await first(['time=59'], false), 200);
  await assert.rejects(first(['time=2000-01-15']), badRequest(/no such value on dimension 'time'.*2000-01-01T00:00:00 … 2000-03-01T00:00:00/));
  await assert.rejects(first(['time=pad::1999-01-01']), badRequest(/at or before/));
  await assert.rejects(first(['time=bfill::2001-01-01']), badRequest(/at or after/));
  await assert.rejects(first(['time=abc']), badRequest(/not a datetime/));
  await assert.rejects(first(['time=abc'], false), badRequest(/not a number/));
});

test('sel mistakes are 400s naming the dimension or variable and what exists', async () => {
  const file = cube();
  const cache = newChunkCache();
  const open = (o: { variables: string[]; sel?: string[]; group?: string }) => openArrayGrid(file, o, cache);
  await assert.rejects(
    open({ variables: ['nope'] }),
    badRequest(/Variable 'nope' not found in group '\/' \(variables: lon, lat, time, lev, sst, other, small\)/),
  );
  await assert.rejects(
    open({ variables: ['sst'], sel: ['lev=1000', 'time=2000-01-01'] }),
    badRequest(/dimension 'lev' of 'sst' has a single value and is squeezed/),
  );
  await assert.rejects(open({ variables: ['sst'], sel: ['depth=3'] }), badRequest(/dimension 'depth'.*\(dimensions: time, lev, lat, lon\)/));
  await assert.rejects(open({ variables: ['sst'], sel: ['time=2000-01-01', 'time=2000-02-01'] }), badRequest(/several values of dimension 'time'/));
  await assert.rejects(open({ variables: ['sst'], sel: ['time=nearest::2000-01-01', 'time=2000-01-01'] }), badRequest(/two methods/));
  await assert.rejects(open({ variables: ['sst'], sel: ['lat=22.5'] }), badRequest(/'lat' is a spatial dimension/));
  await assert.rejects(open({ variables: ['other', 'small'] }), badRequest(/'other' \(lat=4, lon=8\) and 'small' \(lat=2, lon=8\) are not on the same grid/));
  await assert.rejects(open({ variables: ['sst'], group: 'nested' }), badRequest(/Group 'nested' not found/));
});

test('an unselected non-spatial dimension becomes bands (described by its decoded values as numpy prints them, as the XarrayReader of rio-tiler does); several variables stack', async () => {
  const file = cube();
  const ds = await openArrayGrid(file, { variables: ['sst', 'other'] }, newChunkCache());
  assert.equal(ds.count, 4);
  assert.deepEqual(
    ds.bands.map((b) => b.description),
    ['2000-01-01 00:00:00', '2000-02-01 00:00:00', '2000-03-01 00:00:00', 'other'], // cftime (noleap) values: str() of cftime.DatetimeNoLeap,
  );
  assert.equal(ds.bands[0].metadata['long_name'], 'sea surface temperature');
  const r = await ds.readWindow(0, { col: 1, row: 1, width: 2, height: 1 }, [3, 1, 4]);
  assert.deepEqual(
    r.bands.map((b) => Array.from(b)),
    [
      [209, 210],
      [9, 10],
      [9, 10],
    ],
  );
  const two = memoryFile({ variables: [{ name: 'v', dims: ['a', 'b', 'lat', 'lon'], shape: [2, 2, 2, 2] }] });
  await assert.rejects(openArrayGrid(two, { variables: ['v'] }, newChunkCache()), badRequest(/still has dimensions a \(2\), b \(2\)/));
});

test('CF decoding: _FillValue/missing_value → NaN, scale_factor/add_offset applied, xarray float types', async () => {
  const lons = range(-157.5, 8, 45);
  const lats = range(67.5, 4, -45);
  const raw = Array.from({ length: 32 }, (_, i) => (i === 3 ? -32768 : i === 4 ? -1 : i * 10));
  const attrs = { _FillValue: -32768, missing_value: -1, scale_factor: 0.01, add_offset: 273.15, valid_min: -300, valid_max: 4500 };
  const file = memoryFile({
    variables: [
      ...lonLat(lons, lats),
      { name: 'sst', dims: ['lat', 'lon'], shape: [4, 8], dtype: 'int16', data: raw, attrs },
      {
        name: 'ice',
        dims: ['lat', 'lon'],
        shape: [4, 8],
        dtype: 'int8',
        data: raw.map((v) => (v < 0 ? -128 : v % 100)),
        attrs: { _FillValue: -128, scale_factor: 0.01 },
      },
      { name: 'count', dims: ['lat', 'lon'], shape: [4, 8], dtype: 'uint8', data: raw.map((v) => Math.abs(v) % 256) },
    ],
  });
  const sst = await openArrayGrid(file, { variables: ['sst'] }, newChunkCache());
  assert.equal(sst.dtype, 'float32');
  assert.ok(Number.isNaN(sst.nodata));
  assert.deepEqual(sst.bands[0].statistics, [-300 * 0.01 + 273.15, 4500 * 0.01 + 273.15]);
  const v = await readAll(sst);
  assert.ok(Number.isNaN(v[3]) && Number.isNaN(v[4]));
  assert.equal(v[5], Math.fround(50 * 0.01 + 273.15));
  const ice = await openArrayGrid(file, { variables: ['ice'] }, newChunkCache());
  assert.equal(ice.dtype, 'float32');
  const iv = await readAll(ice);
  assert.ok(Number.isNaN(iv[3]));
  assert.equal(iv[5], Math.fround(0.5));
  const count = await openArrayGrid(file, { variables: ['count'] }, newChunkCache());
  assert.equal(count.dtype, 'uint8');
  assert.equal(count.nodata, null);
  assert.equal(count.nodataType, 'None');
});

test('groups: variables of a sub-group use the coordinates of the root (NetCDF scoping); versions carry the selection', async () => {
  const lons = range(-157.5, 8, 45);
  const lats = range(67.5, 4, -45);
  const file = memoryFile({ variables: lonLat(lons, lats), groups: { science: { variables: [{ name: 'sst', dims: ['lat', 'lon'], shape: [4, 8] }] } } });
  const ds = await openArrayGrid(file, { variables: ['sst'], group: '/science' }, newChunkCache());
  assert.deepEqual(ds.bounds, [-180, -90, 180, 90]);
  assert.equal((await readAll(ds))[9], 9);
  assert.equal(ds.version, 'v1|["/science",["sst"],[],true]');
  await assert.rejects(
    openArrayGrid(file, { variables: ['lat'], group: '/science' }, newChunkCache()),
    badRequest(/not found in group '\/science' \(variables: sst\)/),
  );
});

/** A 4×4 projected grid of 10 km cells centred on (0, 0) with a grid-mapping variable. */
function projected(mapping: Record<string, string | number | number[]>, units = 'm') {
  const f = units === 'km' ? 0.001 : 1;
  const xs = range(-15000, 4, 10000).map((v) => v * f);
  const ys = range(15000, 4, -10000).map((v) => v * f);
  return memoryFile({
    variables: [
      { name: 'x', dims: ['x'], shape: [4], dtype: 'float64', data: xs, attrs: { units } },
      { name: 'y', dims: ['y'], shape: [4], dtype: 'float64', data: ys, attrs: { units } },
      { name: 'crs', dims: [], shape: [], dtype: 'int32', data: [0], attrs: mapping },
      { name: 'v', dims: ['y', 'x'], shape: [4, 4], attrs: { grid_mapping: 'crs' } },
    ],
  });
}

// Expected projected coordinates: gdaltransform (GDAL 3.6.2 / PROJ 9.1) of the same PROJ definitions.
const CRS_CASES: Array<[Record<string, string | number | number[]>, [number, number], [number, number]]> = [
  [
    { grid_mapping_name: 'polar_stereographic', straight_vertical_longitude_from_pole: -45, latitude_of_projection_origin: 90, standard_parallel: 70 },
    [-15, 75],
    [816939.748735393, -1414981.15153225],
  ],
  [
    { grid_mapping_name: 'lambert_conformal_conic', standard_parallel: [33, 45], longitude_of_central_meridian: -97, latitude_of_projection_origin: 40 },
    [-100, 35],
    [-272997.976629254, -547779.542265935],
  ],
  [
    {
      grid_mapping_name: 'transverse_mercator',
      scale_factor_at_central_meridian: 0.9996,
      longitude_of_central_meridian: -93,
      latitude_of_projection_origin: 0,
      false_easting: 500000,
    },
    [-90, 45],
    [736446.026101207, 4987329.50469891],
  ],
  [
    {
      grid_mapping_name: 'lambert_azimuthal_equal_area',
      longitude_of_projection_origin: 10,
      latitude_of_projection_origin: 52,
      false_easting: 4321000,
      false_northing: 3210000,
    },
    [5, 50],
    [3962799.45095846, 2999718.85315891],
  ],
  [
    { grid_mapping_name: 'albers_conical_equal_area', standard_parallel: [29.5, 45.5], longitude_of_central_meridian: -96, latitude_of_projection_origin: 23 },
    [-100, 40],
    [-338390.587548508, 1894100.14007904],
  ],
  [
    {
      grid_mapping_name: 'geostationary',
      perspective_point_height: 35786023,
      longitude_of_projection_origin: -75,
      sweep_angle_axis: 'x',
      semi_major_axis: 6378137,
      semi_minor_axis: 6356752.31414,
    },
    [-80, 30],
    [-468595.773155082, 3087367.47623635],
  ],
];

test('CRS from CF grid mappings matches PROJ (gdaltransform); km coordinates become metres', async () => {
  for (const [mapping, lonlat, xy] of CRS_CASES) {
    const ds = await openArrayGrid(projected(mapping), { variables: ['v'] }, newChunkCache());
    const [x, y] = transformPoint(WGS84, ds.crs, lonlat[0], lonlat[1]);
    assert.ok(Math.abs(x - xy[0]) < 0.01 && Math.abs(y - xy[1]) < 0.01, `${String(mapping['grid_mapping_name'])}: ${x},${y} vs ${xy.join(',')}`);
    assert.deepEqual(ds.bounds, [-20000, -20000, 20000, 20000]);
  }
  const km = await openArrayGrid(projected(CRS_CASES[0][0], 'km'), { variables: ['v'] }, newChunkCache());
  assert.deepEqual(km.bounds, [-20000, -20000, 20000, 20000]);
  const wkt = await openArrayGrid(
    projected({
      crs_wkt:
        'PROJCS["WGS 84 / NSIDC Sea Ice Polar Stereographic North",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Polar_Stereographic"],PARAMETER["latitude_of_origin",70],PARAMETER["central_meridian",-45],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1],AUTHORITY["EPSG","3413"]]',
    }),
    { variables: ['v'] },
    newChunkCache(),
  );
  assert.equal(wkt.crs.epsg, 3413);
  await assert.rejects(
    openArrayGrid(projected({ grid_mapping_name: 'rotated_latitude_longitude', grid_north_pole_latitude: 39.25 }), { variables: ['v'] }, newChunkCache()),
    badRequest(/rotated_latitude_longitude/),
  );
  await assert.rejects(
    openArrayGrid(projected({ grid_mapping_name: 'vertical_perspective' }), { variables: ['v'] }, newChunkCache()),
    badRequest(/'vertical_perspective' is not supported/),
  );
});

test('curvilinear grids (2-D lat/lon) and variables without x/y are clear 400s', async () => {
  const file = memoryFile({
    variables: [
      { name: 'lat', dims: ['nj', 'ni'], shape: [3, 3] },
      { name: 'lon', dims: ['nj', 'ni'], shape: [3, 3] },
      { name: 'v', dims: ['nj', 'ni'], shape: [3, 3], attrs: { coordinates: 'lon lat' } },
      { name: 'w', dims: ['a', 'b'], shape: [3, 3] },
    ],
  });
  await assert.rejects(openArrayGrid(file, { variables: ['v'] }, newChunkCache()), badRequest(/curvilinear grid \(2-D coordinate 'lon'/));
  await assert.rejects(
    openArrayGrid(file, { variables: ['w'] }, newChunkCache()),
    badRequest(/Couldn't find X and Y spatial coordinates in variable 'w' \(dimensions: a, b\)/),
  );
});
