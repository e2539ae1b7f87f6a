/**
 * What GET /compatibility reports of an array file (titiler-cmr §2.5, xarray part): its data
 * variables with shape, dtype and sample statistics, its dimensions, its 1-D coordinates with
 * size, dtype and range (CF times as ISO datetimes), and, when the root holds no variables and no
 * group was asked for, the groups worth asking for.
 */
import type { ArrayFile } from './array-model.ts';
import { findCoordinate, findGroup } from './array-groups.ts';
import { axisValueToTime } from './cf-time.ts';
import type { ChunkCache } from './chunk-cache.ts';
import { compatibleGroups, describeGroup } from './describe.ts';
import { readDType } from './hyperslab.ts';
import { sampleStatistics, type SampleStats } from './sample-stats.ts';
import { readCoordinate, timeAxisOf } from './variable-plan.ts';

/** Coordinates longer than this are listed without min/max (reading them would cost too much for a listing). */
const MAX_COORDINATE_READ = 1_000_000;

export interface ArrayInspection {
  variables: Record<string, { shape: number[]; dtype: string } & Partial<SampleStats>>;
  dimensions: Record<string, number>;
  coordinates: Record<string, { size: number; dtype: string; min?: number | string; max?: number | string }>;
  compatible_groups?: string[];
}

export async function inspectArrayFile(
  file: ArrayFile,
  group: string | undefined,
  cache: ChunkCache,
  options: { statistics: boolean },
  signal?: AbortSignal,
): Promise<ArrayInspection> {
  const d = describeGroup(file, group);
  const chain = findGroup(file, group);
  const g = chain[chain.length - 1];
  const out: ArrayInspection = { variables: {}, dimensions: d.dims, coordinates: {} };
  for (const [name, dv] of Object.entries(d.data_vars)) {
    const entry: ArrayInspection['variables'][string] = { shape: dv.shape, dtype: dv.dtype };
    const v = g.variables.get(name);
    if (options.statistics && v !== undefined && readDType(v.dtype) !== null) {
      try {
        const stats = await sampleStatistics(file, v, cache, signal);
        if (stats !== null) Object.assign(entry, stats);
      } catch {
        // titiler-cmr leaves the statistics out when they fail (a filter we cannot decode, a huge chunk…)
      }
    }
    out.variables[name] = entry;
  }
  for (const [name, cv] of Object.entries(d.coords)) {
    const entry: ArrayInspection['coordinates'][string] = { size: cv.shape.reduce((a, b) => a * b, 1), dtype: cv.dtype };
    const v = g.variables.get(name);
    if (v !== undefined && v.dims.length === 1 && readDType(v.dtype) !== null && v.shape[0] > 0 && v.shape[0] <= MAX_COORDINATE_READ) {
      try {
        const values = await readCoordinate(file, v, cache, signal);
        let lo = Infinity;
        let hi = -Infinity;
        for (const x of values) if (x === x) [lo, hi] = [Math.min(lo, x), Math.max(hi, x)];
        const time = timeAxisOf(findCoordinate(chain, v.dims[0]) === v ? v : null, true);
        if (lo <= hi) [entry.min, entry.max] = time !== null ? [axisValueToTime(time, lo), axisValueToTime(time, hi)] : [lo, hi];
      } catch {
        // listed without its range
      }
    }
    out.coordinates[name] = entry;
  }
  if ((group === undefined || group === '') && Object.keys(d.data_vars).length === 0) out.compatible_groups = compatibleGroups(file);
  return out;
}
