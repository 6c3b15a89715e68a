/** Lint a document at a path (a tool's file is known by its path) with remark-lint and the given plugins; messages as `start-end: reason (ruleId)`. */
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {PluggableList} from 'unified'
import type {Position} from 'unist'
import {VFile} from 'vfile'

export async function lintAt(path: string, value: string, plugins: PluggableList): Promise<string[]> {
  const file = new VFile({path, value})
  const processor = unified().use(remarkParse).use(remarkFrontmatter).use(remarkLint).use(plugins)
  await processor.run(processor.parse(file), file)
  return file.messages.map((message) => {
    const {start, end} = message.place as Position
    return `${start.line}:${start.column}-${end.line}:${end.column}: ${message.reason} (${message.ruleId})`
  })
}
