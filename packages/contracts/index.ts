export {analyzeContracts, extractContracts} from './lib/extract.js'
export type {ReadOptions} from './lib/extract.js'
export {splitCheck} from './lib/criterion.js'
// For readers of other tools' files, so criteria read the same everywhere.
export {collapse, inlineText} from './lib/inline.js'
export {lastLineOf} from './lib/lines.js'
// What messages show a value in, here and in the lint rules.
export {inlineCode} from './lib/inline-code.js'
export {dialects} from './lib/dialects/index.js'
export type {DialectModule, FenceDialect, FrontmatterDialect, LabelAt, ParagraphDialect} from './lib/dialects/dialect.js'
export * from './terms.js'
export {findUnreadContracts} from './lib/unread.js'
export type {UnreadContract} from './lib/unread.js'
// For the readers of other tools' files (`@verification-tiers/spec-tools`): a tool's unit heading that
// markdown hides, reported as the model reports a hidden contract; fields made as the dialects make them;
// long lists appended without spreading; the YAML parser, loaded on first use.
export {findHiddenHeadings, unreadHeadingProblem} from './lib/unread.js'
export type {HeadingShape} from './lib/unread.js'
export {labelledField} from './lib/fields.js'
export type {FieldSpans} from './lib/fields.js'
export {appendAll} from './lib/append.js'
export {yaml} from './lib/frontmatter.js'
