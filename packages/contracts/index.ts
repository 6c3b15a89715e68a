export {analyzeContracts, extractContracts} from './lib/extract.js'
export {splitCheck} from './lib/criterion.js'
export * from './terms.js'
