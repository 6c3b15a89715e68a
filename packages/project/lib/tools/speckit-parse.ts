import {analyzeContracts} from '@verification-tiers/contracts'
import type {ContractAnalysis} from '@verification-tiers/contracts'
import type {Heading} from 'mdast'
import {toString} from 'mdast-util-to-string'
import {visit} from 'unist-util-visit'
import {parseMarkdown} from './markdown.js'

/**
 * A user story heading as spec-kit's template writes it, in any language:
 * words, a number, a dash (or colon), a title, and maybe a parenthesised
 * priority (`User Story 2 – Export (Priority: P3)`, `用户故事 1 - 导出（优先级：P1）`).
 */
const storyHeading = /^\D*?\S\s*\d+\s*[-–—:：]\s*\S/u

/**
 * The text with the full-width colon of a bold label (`**验收场景**：`,
 * `**独立测试：**`) read as the colon the contracts reader knows; one
 * character for one, so every position stays the user's.
 */
function withAsciiLabelColons(text: string): string {
  return text.replace(/(\*\*[^*\n]+?\*\*)：|(\*\*[^*\n]+?)：(\*\*)/gu, (_, after: string | undefined, before: string | undefined, close: string | undefined) =>
    after !== undefined ? `${after}:` : `${before}:${close}`
  )
}

/** What a spec.md holds: its title, its user stories read as contracts, and the line where its stories would be. */
export interface Stories extends ContractAnalysis {
  title: string | null
  sectionLine: number
}

/**
 * The user stories of a spec-kit `spec.md`: each third-level heading shaped
 * as the template's story heading starts a contract, read by the contracts
 * reader (its fields, items and positions as the lint rules see them).
 */
export function readStories(file: string, text: string): Stories {
  const {tree, vfile} = parseMarkdown(file, withAsciiLabelColons(text))
  const names: string[] = []
  let title: string | null = null
  let sectionLine: number | null = null
  visit(tree, 'heading', (heading: Heading) => {
    const words = toString(heading).trim()
    if (heading.depth === 1 && title === null) title = words.replace(/^[^:：]*[:：]\s*/u, '') || words
    if (heading.depth === 2 && sectionLine === null) sectionLine = heading.position?.start.line ?? null
    if (heading.depth === 3 && storyHeading.test(words)) names.push(words)
  })
  const analysis = analyzeContracts(tree, vfile, {names})
  return {...analysis, title, sectionLine: sectionLine ?? 1}
}
