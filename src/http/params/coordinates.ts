/** Coordinates in the path: a point `{lon},{lat}` and a box `{minx},{miny},{maxx},{maxy}`. */
import { P } from '../validation/params.ts';

export const lonLatPathParams = {
  lon: P.float().path().describe('Longitude (or X in coord_crs).'),
  lat: P.float().path().describe('Latitude (or Y in coord_crs).'),
};

export const bboxPathParams = { minx: P.float().path(), miny: P.float().path(), maxx: P.float().path(), maxy: P.float().path() };
