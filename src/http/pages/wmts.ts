/** OGC WMTS 1.0.0 capabilities document (RESTful), one layer per tile matrix set (TiTiler §3.8). */
import { WGS84 } from '../../geo/crs.ts';
import { getTileMatrixSet, TMS_IDS } from '../../geo/tms.ts';
import type { ImageReader } from '../../readers/image-reader.ts';
import { mediaType, type ImageFormat } from '../../raster/render/index.ts';

const xmlEscape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export interface WmtsInput {
  requestUrl: string;
  title: string;
  format: ImageFormat;
  useEpsg: boolean;
  tileUrl: (tmsId: string) => string;
  reader: ImageReader;
  /** zooms=TMS::min,max overrides; key `*` applies to every TMS. */
  zoomOverrides: Map<string, [number, number]>;
}

export function wmtsCapabilities(input: WmtsInput): string {
  const media = mediaType(input.format);
  const req = xmlEscape(input.requestUrl);
  const wgs = input.reader.boundsIn(WGS84);
  const layers = TMS_IDS.map((id) => {
    const tms = getTileMatrixSet(id);
    const override = input.zoomOverrides.get(id) ?? input.zoomOverrides.get('*');
    let [minzoom, maxzoom] = [tms.minzoom, tms.maxzoom];
    if (override) [minzoom, maxzoom] = override;
    else {
      try {
        const z = input.reader.zoomRange(tms);
        [minzoom, maxzoom] = [z.minzoom, z.maxzoom];
      } catch {
        // TiTiler falls back to the TMS zoom range when the dataset cannot be opened in that TMS
      }
    }
    const limits = tms.limits(wgs, Math.max(minzoom, tms.minzoom), maxzoom);
    const name = xmlEscape(`${input.title}_${id}_default`);
    return `<Layer>
<ows:Title>${name}</ows:Title>
<ows:Identifier>${name}</ows:Identifier>
<ows:Abstract></ows:Abstract>
<ows:WGS84BoundingBox crs="urn:ogc:def:crs:OGC:2:84">
<ows:LowerCorner>${wgs[0]} ${wgs[1]}</ows:LowerCorner>
<ows:UpperCorner>${wgs[2]} ${wgs[3]}</ows:UpperCorner>
</ows:WGS84BoundingBox>
<Style isDefault="true"><ows:Title>default</ows:Title><ows:Identifier>default</ows:Identifier></Style>
<Format>${media}</Format>
<TileMatrixSetLink>
<TileMatrixSet>${id}</TileMatrixSet>
<TileMatrixSetLimits>
${limits
  .map(
    (l) =>
      `<TileMatrixLimits><TileMatrix>${l.tileMatrix}</TileMatrix><MinTileRow>${l.minTileRow}</MinTileRow><MaxTileRow>${l.maxTileRow}</MaxTileRow><MinTileCol>${l.minTileCol}</MinTileCol><MaxTileCol>${l.maxTileCol}</MaxTileCol></TileMatrixLimits>`,
  )
  .join('\n')}
</TileMatrixSetLimits>
</TileMatrixSetLink>
<ResourceURL format="${media}" resourceType="tile" template="${xmlEscape(input.tileUrl(id))}"/>
</Layer>`;
  });
  const sets = TMS_IDS.map((id) => {
    const tms = getTileMatrixSet(id);
    const doc = tms.toJSON() as {
      tileMatrices: Array<{
        id: string;
        scaleDenominator: number;
        pointOfOrigin: number[];
        tileWidth: number;
        tileHeight: number;
        matrixWidth: number;
        matrixHeight: number;
      }>;
    };
    // TiTiler writes the CRS string of the TMS document as it is (morecantile `crs.srs`), e.g.
    // `urn:ogc:def:crs:EPSG::2193` for NZTM2000Quad; `EPSG:None` for a CRS without EPSG code (CRS84).
    const supported = input.useEpsg ? `EPSG:${tms.crs.epsg ?? 'None'}` : tms.crsString;
    const matrices = doc.tileMatrices
      .map(
        (m) => `<TileMatrix>
<ows:Identifier>${m.id}</ows:Identifier>
<ScaleDenominator>${m.scaleDenominator}</ScaleDenominator>
<TopLeftCorner>${m.pointOfOrigin[0]} ${m.pointOfOrigin[1]}</TopLeftCorner>
<TileWidth>${m.tileWidth}</TileWidth>
<TileHeight>${m.tileHeight}</TileHeight>
<MatrixWidth>${m.matrixWidth}</MatrixWidth>
<MatrixHeight>${m.matrixHeight}</MatrixHeight>
</TileMatrix>`,
      )
      .join('\n');
    return `<TileMatrixSet>
<ows:Identifier>${id}</ows:Identifier>
<ows:SupportedCRS>${xmlEscape(supported)}</ows:SupportedCRS>
${matrices}
</TileMatrixSet>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:gml="http://www.opengis.net/gml" xsi:schemaLocation="http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd" version="1.0.0">
<ows:ServiceIdentification>
<ows:Title>Web Map Tile Service by rastile</ows:Title>
<ows:ServiceType>OGC WMTS</ows:ServiceType>
<ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion>
</ows:ServiceIdentification>
<ows:ServiceProvider>
<ows:ProviderName>rastile</ows:ProviderName>
<ows:ProviderSite xlink:href="https://github.com/rastile/rastile"/>
<ows:ServiceContact/>
</ows:ServiceProvider>
<ows:OperationsMetadata>
<ows:Operation name="GetCapabilities"><ows:DCP><ows:HTTP><ows:Get xlink:href="${req}"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get></ows:HTTP></ows:DCP></ows:Operation>
<ows:Operation name="GetTile"><ows:DCP><ows:HTTP><ows:Get xlink:href="${req}"><ows:Constraint name="GetEncoding"><ows:AllowedValues><ows:Value>RESTful</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get></ows:HTTP></ows:DCP></ows:Operation>
</ows:OperationsMetadata>
<Contents>
${layers.join('\n')}
${sets.join('\n')}
</Contents>
<ServiceMetadataURL xlink:href="${req}"/>
</Capabilities>
`;
}
