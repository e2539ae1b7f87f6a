/** Image rendering: parameters (rescale, color formula), the pipeline and the encoders. */
export { IMAGE_FORMATS, isImageFormat, mediaType, type ImageFormat } from './formats.ts';
export { parseRescale, isProblemText, type ProblemText } from './rescale-param.ts';
export { parseColorFormula, InvalidColorFormula, type ColorFormula, type ColorOperation } from './color-formula-parse.ts';
export { renderImage, postProcess, type RenderOptions, type Rendered } from './render-image.ts';
