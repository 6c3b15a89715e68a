// Runs in its own process: parse every file (mode `parse`), or parse and lint
// it with the preset (mode `preset`), then reports time and peak memory.
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
for (const file of files) {
  const vfile = new VFile({path: file, value: readFileSync(file, 'utf8')})
  const tree = processor.parse(vfile)
  if (mode === 'preset') {
    await processor.run(tree, vfile)
    messages += vfile.messages.length
  }
}
const ms = performance.now() - start
process.stdout.write(JSON.stringify({files: files.length, messages, ms, maxRssKb: process.resourceUsage().maxRSS}) + '\n')
