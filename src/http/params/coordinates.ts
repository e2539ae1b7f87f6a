/** Coordinates in the path: a point `{lon},{lat}` and a box `{minx},{miny},{maxx},{maxy}`. */
import { Problems } from '../validation/issues.ts';
import { P } from '../validation/params.ts';

export const lonLatPathParams = {
  lon: P.float().path().describe('Longitude (or X in coord_crs).'),
  lat: P.float().path().describe('Latitude (or Y in coord_crs).'),
};

type Box = { minx: number; miny: number; maxx: number; maxy: number };

/** Finite corners (P.float), west < east and south < north: an inverted or empty box is a 422. */
export const bboxPathParams = {
  minx: P.float().path(),
  miny: P.float().path(),
  maxx: P.float().path(),
  maxy: P.float().path(),
  _bbox_x_order: P.rule<Box>(
    ['minx', 'maxx'],
    (v) => (v.minx < v.maxx ? undefined : { key: 'maxx', problem: Problems.order('maxx must be greater than minx') }),
    'Must be greater than minx.',
  ),
  _bbox_y_order: P.rule<Box>(
    ['miny', 'maxy'],
    (v) => (v.miny < v.maxy ? undefined : { key: 'maxy', problem: Problems.order('maxy must be greater than miny') }),
    'Must be greater than miny.',
  ),
};
