/** What a Kiro `requirements.md` calls its parts, and how a heading is told to be one of them. */
import type {Heading, Nodes, Paragraph, RootContent} from 'mdast'
import {collapse, inlineText} from '@verification-tiers/contracts'
import type {HeadingShape} from '@verification-tiers/contracts'

/**
 * The title of an acceptance-criteria section, in the languages people write
 * Kiro specs in; compared with the heading's text folded to lower case, so
 * `Acceptance criteria`, `验收标准` and `Critères d’acceptation` all open one.
 */
const criteriaTitles = [
  'acceptance criteria',
  'acceptance criterion',
  '验收标准',
  '驗收標準',
  '验收准则',
  '验收条件',
  '受け入れ基準',
  '受入基準',
  '受け入れ条件',
  '受入条件',
  '인수 기준',
  '수락 기준',
  '승인 기준',
  'akzeptanzkriterien',
  'critères d’acceptation',
  "critères d'acceptation",
  'criterios de aceptación',
  'critérios de aceitação',
  'criteri di accettazione',
  'критерии приемки',
  'критерии приёмки'
]

/** The word a requirement heading opens with, where it has no criteria to show it is one. */
export const requirementWord = /^(?:requirement|req\.?|需求|要求|要件|요구\s?사항|anforderung|exigence|requisito|требование)\s*[-#]?\s*\d/i

// `Requirement 1`, `Requirement 2: Title`, `Requirement 3 – Title`, `需求 4：标题`, `Requirement 1.2. Title`: a word, a number, a separator, a title.
const dashes = '\\-\\u2010-\\u2015\\u2212'
const numbered = new RegExp(`^([^\\d]{0,40}?)\\s*#?\\s*(\\d+(?:\\.\\d+)*)(?=$|[\\s:：.．)${dashes}])\\)?\\s*(?:(?:[:：.．]|[${dashes}]+)\\s*)?(.*)$`, 'u')

/** What reads as a requirement heading to the eye, where markdown made no heading: `Requirement 3`, `REQ-4`, `需求 5`. */
export const requirementHeadingShape: HeadingShape = {
  hint: (line) => /\d/.test(line),
  subject: (text) => requirementWord.test(text.trim())
}

/** The text of a heading or paragraph as written, on one line. */
export function textOf(node: Heading | Paragraph): string {
  return collapse(inlineText(node.children as Nodes[]))
}

function folded(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s:：]+$/u, '')
    .replace(/\s+/g, ' ')
}

/** A title that opens with an acceptance-criteria title: `Acceptance Criteria`, `Acceptance criteria (continued)`, `验收标准`. */
function isCriteriaTitle(text: string): boolean {
  const title = folded(text)
  return (
    !requirementWord.test(title) &&
    criteriaTitles.some((one) => title.startsWith(one) && (title.length === one.length || /^[\s(（:：\-–—]/u.test(title.slice(one.length))))
  )
}

/** A heading titled Acceptance Criteria, or a paragraph that is only that title (`**Acceptance Criteria:**`). */
function isCriteriaMarker(node: RootContent): boolean {
  if (node.type === 'heading') return isCriteriaTitle(textOf(node))
  return node.type === 'paragraph' && criteriaTitles.includes(folded(textOf(node)))
}

// A heading that numbers its subject in any language: `Yêu cầu 1`, `Wymaganie 2: Tytuł`.
const numberedSubject = /^\p{L}[\p{L}\p{M}\s.]{0,40}?\s*#?\d/u

/**
 * Which blocks open an acceptance-criteria section. By title, in the
 * languages of `criteriaTitles`; in a document with none of those and no
 * `Requirement N`, by the template's structure: the title of the first
 * sub-heading of numbered headings (`### Yêu cầu 1` then `#### Tiêu chí
 * chấp nhận`) that a list follows, taken where it appears most.
 */
export function criteriaMarkers(nodes: readonly RootContent[]): (node: RootContent) => boolean {
  if (nodes.some((node) => isCriteriaMarker(node) || (node.type === 'heading' && requirementWord.test(textOf(node))))) return isCriteriaMarker
  const counts = new Map<string, number>()
  nodes.forEach((node, index) => {
    if (node.type !== 'heading' || node.depth === 1 || !numberedSubject.test(textOf(node))) return
    // Its first sub-heading, past the User Story.
    let at = index + 1
    while (at < nodes.length && nodes[at].type !== 'heading') at++
    const sub = nodes[at]
    if (sub?.type !== 'heading' || sub.depth <= node.depth || nodes[at + 1]?.type !== 'list' || numberedSubject.test(textOf(sub))) return
    const title = folded(textOf(sub))
    counts.set(title, (counts.get(title) ?? 0) + 1)
  })
  const learned = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
  if (learned === undefined) return isCriteriaMarker
  return (node) => node.type === 'heading' && folded(textOf(node)) === learned
}

/** The id (`R-` and the heading's number) and name (its title, else the heading) of a requirement heading's text. */
export function requirementHeading(label: string): {id: string | null; name: string} {
  const match = numbered.exec(label)
  return {id: match ? `R-${match[2]}` : null, name: (match?.[3] ?? '').trim() || label}
}
