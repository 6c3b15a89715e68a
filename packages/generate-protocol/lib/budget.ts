import type {RenderedDoc} from './render.js'

/** A heading’s section and its size. */
export interface SectionSize {
  heading: string
  lines: number
}

/** A doc over its line budget. */
export interface BudgetOverrun {
  output: string
  template: string
  lines: number
  budget: number
  largest: SectionSize[]
}

/** Docs over budget, each with its three largest sections. */
export function findOverruns(docs: readonly RenderedDoc[], outputPath: (output: string) => string): BudgetOverrun[] {
  return docs
    .filter((doc) => doc.lines > doc.template.budget)
    .map((doc) => ({
      output: outputPath(doc.template.output),
      template: doc.template.path,
      lines: doc.lines,
      budget: doc.template.budget,
      largest: sectionSizes(doc.text)
        .sort((a, b) => b.lines - a.lines)
        .slice(0, 3)
    }))
}

/** Lines per heading section (headings inside code fences do not count). */
export function sectionSizes(text: string): SectionSize[] {
  const sections: SectionSize[] = []
  let current: SectionSize = {heading: '(before the first heading)', lines: 0}
  let fence: string | null = null
  const lines = text.replace(/\n$/, '').split('\n')
  for (const line of lines) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker && (fence === null || marker.startsWith(fence))) fence = fence === null ? marker : null
    if (fence === null && /^#{1,6}\s/.test(line)) {
      if (current.lines > 0) sections.push(current)
      current = {heading: line.trim(), lines: 0}
    }
    current.lines++
  }
  if (current.lines > 0) sections.push(current)
  return sections
}

export function describeOverrun(overrun: BudgetOverrun): string {
  const largest = overrun.largest.map((section) => `${section.heading} (${section.lines})`).join(', ')
  return `${overrun.output}: ${overrun.lines} lines, over its budget of ${overrun.budget} (from ${overrun.template}); largest sections: ${largest}`
}
