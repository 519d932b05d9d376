/**
 * The part of Papa Parse the screens use, typed here: @types/papaparse references Node's types
 * (its streaming API), and the renderer's program must not see them (renderer/tsconfig.json maps
 * the module here). The test tier compiles against the full @types/papaparse.
 */
export interface ParseError {
  type: string;
  code: string;
  message: string;
  row?: number;
}
export interface ParseConfig {
  delimiter?: string;
  header?: false;
  skipEmptyLines?: boolean | 'greedy';
  delimitersToGuess?: string[];
  preview?: number;
}
export interface ParseResult<T> {
  data: T[];
  errors: ParseError[];
  meta: { delimiter: string; linebreak: string; aborted: boolean; truncated: boolean; cursor: number };
}
export interface UnparseConfig {
  delimiter?: string;
  newline?: string;
  quotes?: boolean;
}
interface Papa {
  parse<T>(input: string, config?: ParseConfig): ParseResult<T>;
  unparse(data: unknown[][], config?: UnparseConfig): string;
}
declare const papa: Papa;
export default papa;
