/**
 * The 18 algorithms: TiTiler's model metadata (class name, title, description, `input_*` /
 * `output_*` defaults, parameter fields with pydantic constraints) and the function applying each.
 */
import type { ImageData } from '../image-data.ts';
import { reduction } from './band-reductions.ts';
import { cast, ceil, floor } from './cast-ops.ts';
import { contours } from './contours.ts';
import { hillshade } from './hillshade.ts';
import { bitonal, grayscale } from './luma.ts';
import { normalizedIndex } from './normalized-index.ts';
import type { AlgorithmParams, ParamSpec } from './params.ts';
import { slope } from './slope.ts';
import { terrainrgb } from './terrainrgb.ts';
import { terrarium } from './terrarium.ts';

export interface AlgorithmDef {
  /** pydantic model (class) name, used in validation messages. */
  model: string;
  title: string;
  description: string;
  inputNbands: number | null;
  outputNbands: number | null;
  outputDtype: string | null;
  outputMin: number[] | null;
  outputMax: number[] | null;
  params: readonly ParamSpec[];
  /** Long ones (hillshade, slope) yield to the event loop as they go (util/cooperate.ts). */
  apply: (params: AlgorithmParams, img: ImageData) => ImageData | Promise<ImageData>;
}

const buffer: ParamSpec = { name: 'buffer', type: 'integer', default: 3, minimum: 0, maximum: 99 };
const zExaggeration: ParamSpec = { name: 'z_exaggeration', type: 'number', default: 1.0, minimum: 1e-6, maximum: 1e6 };
const nodataHeight: ParamSpec = {
  name: 'nodata_height',
  type: 'number',
  nullable: true,
  default: null,
  minimum: -99999.0,
  maximum: 99999.0,
};

const plain = { inputNbands: null, outputNbands: null, outputDtype: null, outputMin: null, outputMax: null, params: [] };
const toUint8 = { ...plain, outputDtype: 'uint8', outputMin: [0], outputMax: [255] };

function bandMath(model: string, title: string, description: string, outputDtype: string | null, apply: AlgorithmDef['apply']): AlgorithmDef {
  return { ...plain, model, title, description, outputNbands: 1, outputDtype, apply };
}

export const DEFINITIONS = {
  hillshade: {
    model: 'HillShade',
    title: 'Hillshade',
    description: 'Create hillshade from DEM dataset.',
    inputNbands: 1,
    outputNbands: 1,
    outputDtype: 'uint8',
    outputMin: null,
    outputMax: null,
    params: [
      { name: 'azimuth', type: 'integer', default: 45, minimum: 0, maximum: 360 },
      { name: 'angle_altitude', type: 'number', default: 45.0, minimum: -90.0, maximum: 90.0 },
      buffer,
      zExaggeration,
    ],
    apply: hillshade,
  },
  slope: {
    model: 'Slope',
    title: 'Slope',
    description: 'Calculate degrees of slope from DEM dataset.',
    inputNbands: 1,
    outputNbands: 1,
    outputDtype: 'float32',
    outputMin: [0.0],
    outputMax: [90.0],
    params: [{ ...buffer, description: 'Buffer size for edge effects' }, zExaggeration],
    apply: slope,
  },
  contours: {
    model: 'Contours',
    title: 'Contours',
    description: 'Create contours from DEM dataset.',
    inputNbands: 1,
    outputNbands: 3,
    outputDtype: 'uint8',
    outputMin: null,
    outputMax: null,
    params: [
      { name: 'increment', type: 'integer', default: 35, minimum: 0, maximum: 999 },
      { name: 'thickness', type: 'integer', default: 1, minimum: 0, maximum: 10 },
      { name: 'minz', type: 'integer', default: -12000, minimum: -99999, maximum: 99999 },
      { name: 'maxz', type: 'integer', default: 8000, minimum: -99999, maximum: 99999 },
    ],
    apply: contours,
  },
  normalizedIndex: {
    model: 'NormalizedIndex',
    title: 'Normalized Difference Index',
    description: 'Compute normalized difference index from two bands.',
    inputNbands: 2,
    outputNbands: 1,
    outputDtype: 'float32',
    outputMin: [-1.0],
    outputMax: [1.0],
    params: [],
    apply: normalizedIndex,
  },
  terrarium: {
    model: 'Terrarium',
    title: 'Terrarium',
    description: 'Encode DEM into RGB (Mapzen Terrarium).',
    inputNbands: 1,
    outputNbands: 3,
    outputDtype: 'uint8',
    outputMin: null,
    outputMax: null,
    params: [nodataHeight],
    apply: terrarium,
  },
  terrainrgb: {
    model: 'TerrainRGB',
    title: 'TerrainRGB',
    description: 'Encode DEM into RGB (Mapbox Terrain RGB).',
    inputNbands: 1,
    outputNbands: 3,
    outputDtype: 'uint8',
    outputMin: null,
    outputMax: null,
    params: [
      { name: 'interval', type: 'number', default: 0.1, minimum: 0.0, maximum: 1.0 },
      { name: 'baseval', type: 'number', default: -10000.0, minimum: -99999.0, maximum: 99999.0 },
      nodataHeight,
    ],
    apply: terrainrgb,
  },
  cast: { ...toUint8, model: 'CastToInt', title: 'Cast data to Integer', description: 'Cast data to Integer.', apply: cast },
  ceil: {
    ...toUint8,
    model: 'Ceil',
    title: 'Round data to the smallest integer',
    description: 'Round data to the smallest integer.',
    apply: ceil,
  },
  floor: {
    ...toUint8,
    model: 'Floor',
    title: 'Round data to the largest integer',
    description: 'Round data to the largest integer.',
    apply: floor,
  },
  min: bandMath('_Min', 'Min', 'Return Min values along the `bands` axis.', null, reduction('min')),
  max: bandMath('_Max', 'Max', 'Return Max values along the `bands` axis.', null, reduction('max')),
  median: bandMath('_Median', 'Median', 'Return Median values along the `bands` axis.', 'float64', reduction('median')),
  mean: bandMath('_Mean', 'Mean', 'Return Mean values.', 'float64', reduction('mean')),
  std: bandMath('_Std', 'Standard deviation', 'Return the Standard Deviation along the `bands` axis.', 'float64', reduction('std')),
  var: bandMath('_Var', 'Variance', 'Return Variance along the `bands` axis.', 'float64', reduction('var')),
  sum: bandMath('_Sum', 'Sum', 'Return Sum values along the `bands` axis.', null, reduction('sum')),
  grayscale: bandMath('ToGrayScale', 'Transform a RGB Image to Grayscale', 'Transform a RGB Image to Grayscale using the ITU-R 601-2 luma.', null, grayscale),
  bitonal: bandMath(
    'ToBitonal',
    'Transform an Image to Bitonal',
    'All values larger than 127 are set to 255 (white), all other values to 0 (black).',
    'uint8',
    bitonal,
  ),
} satisfies Record<string, AlgorithmDef>;

export type AlgorithmId = keyof typeof DEFINITIONS;
