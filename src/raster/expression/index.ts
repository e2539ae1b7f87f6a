/** Band-math expressions (rio-tiler / numexpr syntax): parse once, compile once, evaluate per tile. */
export { parseExpression, describeExpression, type ParsedExpression } from './parse.ts';
export { compileExpression, type CompiledExpression, type EvaluatedExpression } from './compile.ts';
