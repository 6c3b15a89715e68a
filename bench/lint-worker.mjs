// Runs in its own process: parse every markdown file under a folder with
// three pipelines, in turns, and print the fastest time of each as JSON:
// - `parse`: remark-parse + remark-frontmatter;
// - `remark-lint`: the same and remark-lint (its message control, no rules);
// - `preset`: remark-parse + the verification-tiers preset (which brings
//   remark-frontmatter, remark-lint and the contract rules).
// In one process and in turns, so that the ratios are not the noise of two
// processes on a busy machine; a first round warms the JIT and is not kept.
// Prints the rounds kept, too.
import {readdirSync, readFileSync} from 'node:fs'
import path from 'node:path'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'

const [dir, rounds = '3'] = process.argv.slice(2)
const pipelines = {
  parse: unified().use(remarkParse).use(remarkFrontmatter),
  'remark-lint': unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint),
  preset: unified().use(remarkParse).use(remarkPresetLintVerificationTiers)
}
const files = readdirSync(dir, {recursive: true})
  .filter((file) => /\.(md|markdown)$/i.test(file))
  .sort()
  .map((file) => ({path: path.join(dir, file), value: readFileSync(path.join(dir, file), 'utf8')}))

async function time(processor) {
  const start = performance.now()
  let messages = 0
  for (const file of files) {
    const vfile = new VFile(file)
    await processor.run(processor.parse(vfile), vfile)
    messages += vfile.messages.length
  }
  return {ms: performance.now() - start, messages}
}

// A small corpus takes a fraction of a second a round, where one pause of
// the collector is a tenth of it: rounds go on until each pipeline has run
// about five seconds in all (and at least `rounds` times), keeping the fastest.
const best = {}
let total = Number(rounds)
for (let round = 0; round <= total; round++) {
  for (const [name, processor] of Object.entries(pipelines)) {
    const result = await time(processor)
    if (round === 0) total = Math.min(50, Math.max(total, Math.ceil(5000 / Math.max(result.ms, 1))))
    if (round > 0 && (!best[name] || result.ms < best[name].ms)) best[name] = result
  }
}
process.stdout.write(JSON.stringify({files: files.length, rounds: total, best, maxRssKb: process.resourceUsage().maxRSS}) + '\n')
