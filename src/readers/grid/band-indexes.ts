/** The band selection of a read: requested 1-based indexes, or every non-alpha band. */
import { Errors } from '../../errors.ts';
import type { GridDataset } from '../../formats/grid-dataset.ts';

/** The requested 1-based band indexes (default: every non-alpha band), validated. */
export function bandIndexes(ds: GridDataset, requested: number[] | undefined): number[] {
  if (requested === undefined || requested.length === 0) return [...ds.dataBands];
  for (const i of requested) {
    if (!Number.isInteger(i) || i < 1 || i > ds.count) {
      throw Errors.invalidBandIndex(`Band index ${i} is out of range: the dataset has ${ds.count} band(s)`);
    }
  }
  return requested;
}
