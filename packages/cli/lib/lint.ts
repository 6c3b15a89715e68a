import remarkParse from 'remark-parse'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'
import {remarkParseFast} from './lint/fast-parse.js'

const processor = unified().use(remarkParse).use(remarkPresetLintVerificationTiers).use(remarkParseFast)

/** Messages of the verification-tiers preset for one file. */
export async function lintFile(file: string, text: string): Promise<VFileMessage[]> {
  const vfile = new VFile({path: file, value: text})
  await processor.run(processor.parse(vfile), vfile)
  return vfile.messages
}
