/** A GeoJSON Feature whose geometry is the box [west, south, east, north] (POST bodies of the replay tests). */
export function boxFeature(b: readonly number[]) {
  const [w, s, e, n] = b as [number, number, number, number];
  return {
    type: 'Feature' as const,
    properties: {},
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [w, s],
          [e, s],
          [e, n],
          [w, n],
          [w, s],
        ],
      ],
    },
  };
}
