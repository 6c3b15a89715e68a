export {FileReadError} from './lib/file-error.js'
export type {FilePlace} from './lib/file-error.js'
export {
  defaultReadLimits,
  firstNonUtf8,
  formatSize,
  inputLimits,
  readInputFile,
  readInputFileSync,
  readLimitCeilings,
  readRegularFile
} from './lib/read-file.js'
export type {ReadInputOptions, ReadLimits} from './lib/read-file.js'
export {describeJsonError, jsonPlace, parseJson, parseJsonText} from './lib/json.js'
export type {JsonParse} from './lib/json.js'
export {findDuplicateKey} from './lib/json-error.js'
export type {DuplicateKey} from './lib/json-error.js'
