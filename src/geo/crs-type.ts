/** The shared `Crs` shape (its own file so the registry's modules need not import crs.ts, their facade). */
export interface Crs {
  /** Canonical key: "EPSG:4326", "OGC:CRS84", "ESRI:102001", or "CUSTOM:<hash>" for user-defined ones. */
  readonly id: string;
  /** Definition handed to proj4js (a PROJ string, or WKT when that describes the datum better). */
  readonly proj4: string;
  /** EPSG code when the CRS is (equivalent to) an EPSG CRS. */
  readonly epsg: number | null;
  readonly isGeographic: boolean;
  /** WKT1 text, used by /info when the CRS has no authority code. */
  readonly wkt: string | null;
  /**
   * A local engineering CRS (WKT1 `LOCAL_CS`): plain x/y in some unit, with no relation to any
   * datum. Coordinates can only be used in that CRS itself (`proj4` holds the WKT).
   */
  readonly engineering?: boolean;
}
