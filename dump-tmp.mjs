import {unified} from 'unified'
import remarkParse from 'remark-parse'
import remarkFrontmatter from 'remark-frontmatter'
import {VFile} from 'vfile'
import {readFileSync} from 'node:fs'
import {analyzeContracts} from '@verification-tiers/contracts'
const p = (pos) => pos ? `${pos.start.line}:${pos.start.column}-${pos.end.line}:${pos.end.column}` : null
const src = process.argv[2] === '-' ? readFileSync(0, 'utf8') : readFileSync(process.argv[2], 'utf8')
const file = new VFile({value: src})
const tree = unified().use(remarkParse).use(remarkFrontmatter).parse(file)
const a = analyzeContracts(tree, file)
for (const c of a.contracts) {
  console.log(`== ${c.id} | ${c.name} | ${c.label} | ${c.dialect} | pos ${p(c.position)} | head ${p(c.headingPosition)} | tier ${JSON.stringify(c.tier)} eff ${c.effectiveTier} | slice ${c.slice} ${JSON.stringify(c.sliceHeading)} | crit ${c.criteria.length} steps ${c.steps.length}`)
  for (const f of c.fields) {
    console.log(`   [${f.key}] ${JSON.stringify(f.label)} exp=${f.expectedLabel} val=${JSON.stringify(f.value)} ${f.dialect} pos ${p(f.position)} lab ${p(f.labelPosition)} v ${p(f.valuePosition)} list=${f.hasList}`)
    for (const i of f.items) console.log(`       - ${JSON.stringify(i.text)} ${p(i.position)} ${JSON.stringify(i.check)}`)
  }
}
for (const pr of a.problems) console.log('PROBLEM', JSON.stringify(pr.kind), pr.subject, pr.actual, pr.expected, p(pr.place))
