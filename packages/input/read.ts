// The reader and its error alone, with Node's own modules only: for a program that reads a file before it loads anything else (`tiers lint --cache`).
export {FileReadError} from './lib/file-error.js'
export type {FilePlace} from './lib/file-error.js'
export {formatSize, inputLimits, readInputFile, readInputFileSync, readRegularFile} from './lib/read-file.js'
export type {ReadInputOptions} from './lib/read-file.js'
