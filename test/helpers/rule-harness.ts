/**
 * What every rule’s unit tests share: lint a document with remark-lint and one
 * rule, and compare messages as plain objects (reason, place, ids, url,
 * severity, `actual` and `expected`).
 */
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkLint from 'remark-lint'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import type {Plugin} from 'unified'
import type {Position} from 'unist'
import {VFile} from 'vfile'
import type {VFileMessage} from 'vfile-message'

export function ruleHarness(ruleId: string, plugin: unknown) {
  const url = `https://github.com/verification-tiers/verification-tiers/tree/main/packages/remark-lint-${ruleId}#readme`
  const rule = plugin as Plugin<unknown[], Root>

  /** Lint `value` with remark-lint and the rule, configured with `config` (nothing: the default). */
  async function lint(value: string, ...config: unknown[]): Promise<VFileMessage[]> {
    const file = new VFile({path: 'CONTRACTS.md', value})
    const processor = unified()
      .use(remarkParse)
      .use(remarkFrontmatter)
      .use(remarkLint)
      .use(rule, ...config)
    await processor.run(processor.parse(file), file)
    return file.messages
  }

  function where(place: VFileMessage['place']): string | undefined {
    if (!place) return undefined
    const {start, end} = place as Position
    return `${start.line}:${start.column}-${end.line}:${end.column}`
  }

  function summary(message: VFileMessage) {
    return {
      reason: message.reason,
      place: where(message.place),
      ruleId: message.ruleId,
      source: message.source,
      url: message.url,
      fatal: message.fatal,
      actual: message.actual,
      expected: message.expected
    }
  }

  /** What a message of this rule looks like. */
  function expected(place: string, reason: string, fields: {actual?: string; expected?: string[]; fatal?: boolean} = {}) {
    return {reason, place, ruleId, source: 'remark-lint', url, fatal: fields.fatal ?? false, actual: fields.actual, expected: fields.expected}
  }

  async function check(value: string, ...config: unknown[]) {
    return (await lint(value, ...config)).map(summary)
  }

  return {url, rule, lint, where, summary, expected, check}
}
