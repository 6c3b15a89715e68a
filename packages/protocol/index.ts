export * from './lib/vocabulary.js'
export * from './lib/placeholders.js'
export * from './lib/template-helpers.js'
