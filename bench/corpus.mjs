// A deterministic corpus of contract files for the benchmarks: many small
// files with frontmatter and six contracts each, plus one large file.
import {mkdirSync, writeFileSync} from 'node:fs'
import path from 'node:path'

/** A small, seeded random source (mulberry32), so every run writes the same corpus. */
function random(seed) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const words = ['campaign', 'card', 'badge', 'spend', 'status', 'grid', 'export', 'currency', 'header', 'filter', 'chart', 'total']
const vague = ['works as expected', 'should work', 'looks good']

/** One contract in one of the three markdown dialects, with a mistake now and then. */
function contract(next, n, slice) {
  const pick = (list) => list[Math.floor(next() * list.length)]
  const name = `${pick(words)[0].toUpperCase()}${pick(words)}${n}`
  const tier = next() < 0.3 ? 'auto' : next() < 0.05 ? 'Verify' : 'verify'
  const criteria = Array.from({length: 1 + Math.floor(next() * 6)}, (_, i) =>
    next() < 0.1 ? `The ${pick(words)} ${pick(vague)}` : `The ${pick(words)} shows its ${pick(words)} (${i + 1}) -- verified by: \`npm test -- ${pick(words)}\``
  )
  const style = next()
  if (style < 0.6) {
    return [`### C-${n}: ${name}`, '', `**Boundary:** ${name} component -> rendered ${pick(words)}`, `**Slice:** ${slice}`, `**Verification:** ${tier}`, '**Acceptance Criteria:**', ...criteria.map((c) => `- ${c}`), '', '**Steps:**', `1. Open /${pick(words)}/${n}`, '']
  }
  if (style < 0.85) {
    return [`### C-${n}: ${name}`, '', '```', `Contract: ${name}`, `Slice: ${slice}`, `Verification: ${tier}`, 'Acceptance Criteria:', ...criteria.map((c) => `  - ${c}`), '```', '']
  }
  return [`### C-${n}: ${name}`, '', '```go', `// Contract: ${name}`, `// Slice: ${slice}`, `// Verification: ${tier}`, '```', '', 'Some prose about the contract, with `code` and a [link](https://example.com).', '']
}

/**
 * Write the corpus into `dir`: `files` small files (frontmatter and six
 * contracts each) and one large file of `largeContracts` contracts.
 * Returns the paths and the total size in bytes.
 */
export function writeCorpus(dir, {files, largeContracts, seed = 1}) {
  const next = random(seed)
  mkdirSync(path.join(dir, 'contracts'), {recursive: true})
  const paths = []
  let bytes = 0
  let n = 0
  const write = (file, text) => {
    writeFileSync(file, text)
    paths.push(file)
    bytes += Buffer.byteLength(text)
  }
  for (let f = 0; f < files; f++) {
    const slice = `S-${String(f + 1).padStart(4, '0')}`
    const lines = ['---', `title: Slice ${f + 1}`, `slice: ${slice}`, 'owner: team-' + (f % 7), '---', '', `# ${slice}: Slice ${f + 1}`, '']
    for (let c = 0; c < 6; c++) lines.push(...contract(next, ++n, slice))
    write(path.join(dir, 'contracts', `slice-${String(f + 1).padStart(5, '0')}.md`), lines.join('\n'))
  }
  const large = ['# CONTRACTS.md', '']
  for (let c = 0; c < largeContracts; c++) {
    if (c % 6 === 0) large.push(`## S-L${c / 6}: Large slice ${c / 6}`, '')
    large.push(...contract(next, ++n, `S-L${Math.floor(c / 6)}`))
  }
  write(path.join(dir, 'CONTRACTS.md'), large.join('\n'))
  return {paths, bytes}
}
