import {readFrontmatter} from '../frontmatter.js'
import type {FrontmatterDialect} from './dialect.js'

/** One contract per file in YAML frontmatter (`id`, `contract`, `verification`, `acceptance_criteria`, `steps`). */
export const frontmatter = {
  name: 'frontmatter',
  reads: 'frontmatter',
  labelStyle: 'frontmatter',
  read: readFrontmatter,
  // Frontmatter is a contract of its own, never a heading’s.
  marksContract: () => false
} as const satisfies FrontmatterDialect<'frontmatter'>
