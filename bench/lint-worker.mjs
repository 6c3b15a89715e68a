// Runs in its own process: parse every file (mode `parse`), or parse and lint
// it with the preset (mode `preset`), then reports time (all, parsing, the
// preset's transformers) and peak memory.
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'

const [mode, dir] = process.argv.slice(2)
const files = readdirSync(dir, {recursive: true}).filter((file) => file.endsWith('.md')).map((file) => path.join(dir, file))
const processor = mode === 'preset' ? unified().use(remarkParse).use(remarkPresetLintVerificationTiers) : unified().use(remarkParse).use(remarkFrontmatter)
const start = performance.now()
let messages = 0
// Time in the parser and in the preset's transformers apart, in the same
// process: what the preset adds, without the noise of two processes' parses.
let parseMs = 0
let runMs = 0
for (const file of files) {
  const vfile = new VFile({path: file, value: readFileSync(file, 'utf8')})
  const parsed = performance.now()
  const tree = processor.parse(vfile)
  const ran = performance.now()
  parseMs += ran - parsed
  if (mode === 'preset') {
    await processor.run(tree, vfile)
    runMs += performance.now() - ran
    messages += vfile.messages.length
  }
}
const ms = performance.now() - start
process.stdout.write(JSON.stringify({files: files.length, messages, ms, parseMs, runMs, maxRssKb: process.resourceUsage().maxRSS}) + '\n')
