export * from './lib/vocabulary.js'
export * from './lib/placeholders.js'
