// Runs in its own process: parse every markdown file under a folder and run
// one pipeline on it, then print time (all, parsing, transformers) and peak
// memory as JSON. Modes:
// - `parse`: remark-parse + remark-frontmatter;
// - `remark-lint`: the same and remark-lint (its message control, no rules);
// - `preset`: remark-parse + the verification-tiers preset (which brings
//   remark-frontmatter, remark-lint and the contract rules).
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'

const [mode, dir] = process.argv.slice(2)
const processors = {
  parse: () => unified().use(remarkParse).use(remarkFrontmatter),
  'remark-lint': () => unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint),
  preset: () => unified().use(remarkParse).use(remarkPresetLintVerificationTiers)
}
const processor = processors[mode]?.()
if (!processor) throw new Error(`Unknown mode ${mode}, expected one of ${Object.keys(processors).join(', ')}`)
const files = readdirSync(dir, {recursive: true})
  .filter((file) => /\.(md|markdown)$/i.test(file))
  .sort()
  .map((file) => path.join(dir, file))
const start = performance.now()
let messages = 0
let parseMs = 0
let runMs = 0
for (const file of files) {
  const vfile = new VFile({path: file, value: readFileSync(file, 'utf8')})
  const parsed = performance.now()
  const tree = processor.parse(vfile)
  const ran = performance.now()
  parseMs += ran - parsed
  await processor.run(tree, vfile)
  runMs += performance.now() - ran
  messages += vfile.messages.length
}
const ms = performance.now() - start
process.stdout.write(JSON.stringify({files: files.length, messages, ms, parseMs, runMs, maxRssKb: process.resourceUsage().maxRSS}) + '\n')
