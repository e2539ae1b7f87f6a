/** The generated granule collection of test/fixtures/granules (scripts/fixtures/granules.py). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UmmItem } from '../helpers/cmr-standin.ts';

export const GRANULE_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/granules');
export const GRANULE_DATA_DIR = path.join(GRANULE_FIXTURES, 'data');
export const COLLECTION_ID = 'C1000000001-RASTILE';

export interface GranuleExpectation {
  granule_ur: string;
  crs: string;
  transform: number[];
  width: number;
  height: number;
  bounds: [number, number, number, number];
  bounds_4326: [number, number, number, number];
  footprint_envelope: [number, number, number, number];
  files: Record<string, number>;
}

interface FixtureFile {
  collections: UmmItem[];
  items: UmmItem[];
  expected: Record<string, GranuleExpectation>;
}

/** The records with `{DATA_HOST}` replaced by `dataHost` (default: left as is). */
export function loadGranuleFixtures(dataHost?: string): FixtureFile {
  let text = readFileSync(path.join(GRANULE_FIXTURES, 'granules.json'), 'utf8');
  if (dataHost !== undefined) text = text.replaceAll('{DATA_HOST}', dataHost.replace(/\/+$/, ''));
  return JSON.parse(text) as FixtureFile;
}
