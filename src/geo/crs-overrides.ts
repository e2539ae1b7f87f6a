/**
 * EPSG codes whose epsg-index definition proj4js gets wrong (or cannot read), with the
 * definition to use instead. Each entry names the measured problem. Data, not code.
 */
export const EPSG_OVERRIDES: Readonly<Record<number, { proj4: string; geodeticEpsg?: number; why: string }>> = {};
