/** The `url` parameter of the /stac routes: the STAC Item location. */
import { P } from '../validation/params.ts';

export const stacUrlParam = {
  url: P.str()
    .required()
    .describe('STAC Item URL: local path or file:// under the allowed roots, http(s)://, or s3://bucket/key. Relative asset hrefs resolve against it.'),
};

export type StacUrlParam = typeof stacUrlParam;
