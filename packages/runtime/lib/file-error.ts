// The one error of a file that cannot be read or used, defined with the reader of every input.
export {FileReadError} from '@verification-tiers/input'
export type {FilePlace} from '@verification-tiers/input'
