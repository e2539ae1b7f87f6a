/**
 * TiTiler's 18 named algorithms (§9): registry, `/algorithms/{id}` descriptions, parameter
 * validation and application to an ImageData.
 */
import { Errors } from '../../errors.ts';
import type { ImageData } from '../image-data.ts';
import { chargeRequest } from '../../util/request-budget.ts';
import { type AlgorithmDef, type AlgorithmId, DEFINITIONS } from './definitions.ts';
import { type AlgorithmParams, paramJsonSchema, validateParams } from './params.ts';

export type { AlgorithmId } from './definitions.ts';
export type { AlgorithmParams } from './params.ts';

/** Registry order, as `/algorithms` lists them. */
export const ALGORITHM_IDS: readonly AlgorithmId[] = Object.freeze([
  'hillshade',
  'slope',
  'contours',
  'normalizedIndex',
  'terrarium',
  'terrainrgb',
  'cast',
  'ceil',
  'floor',
  'min',
  'max',
  'median',
  'mean',
  'std',
  'var',
  'sum',
  'grayscale',
  'bitonal',
] as const);

export interface AlgorithmDescription {
  title: string;
  description: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

export const isAlgorithmId = (id: string): id is AlgorithmId => Object.hasOwn(DEFINITIONS, id);

function definition(id: string): AlgorithmDef {
  if (!isAlgorithmId(id)) throw Errors.badRequest(`Unknown algorithm: ${id}`);
  return DEFINITIONS[id];
}

/** `GET /algorithms/{id}` body: defaults of the `input_*`/`output_*` fields and the parameters' JSON schema. */
export function describeAlgorithm(id: string): AlgorithmDescription {
  const d = definition(id);
  return {
    title: d.title,
    description: d.description,
    inputs: { nbands: d.inputNbands },
    outputs: { nbands: d.outputNbands, dtype: d.outputDtype, min: d.outputMin, max: d.outputMax },
    parameters: Object.fromEntries(d.params.map((p) => [p.name, paramJsonSchema(p)])),
  };
}

/**
 * Validates `algorithm_params` (already parsed from JSON). Unknown keys are ignored; a wrong
 * type, a value out of range or a missing required field throws `InvalidAlgorithmParams` (400)
 * with pydantic's message.
 */
export function validateAlgorithmParams(id: string, params: Record<string, unknown>): AlgorithmParams {
  const d = definition(id);
  return validateParams(d.model, d.params, params);
}

/** Applies a validated algorithm; wrong band counts or unusable images throw `BadRequest`. */
export async function applyAlgorithm(id: string, params: AlgorithmParams, img: ImageData): Promise<ImageData> {
  chargeRequest(img.width * img.height * 8 * Math.max(1, img.bands.length), `The ${id} algorithm on ${img.bands.length} band(s) of ${img.width}×${img.height}`);
  return definition(id).apply(params, img);
}
