/**
 * Severity and options the usual remark-lint way, which every rule made with
 * `contractRule` takes: tested once here, through a real rule that has an
 * option (`remark-lint-acceptance-criteria-count`, `max`), not in each rule’s
 * own tests.
 */
import remarkLintAcceptanceCriteriaCount from 'remark-lint-acceptance-criteria-count'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'acceptance-criteria-count'
const {expected, check} = ruleHarness(ruleId, remarkLintAcceptanceCriteriaCount)

const reason = (count: number, max: number) => `Unexpected ${count} acceptance criteria on C-07 OrderHistory, expected at most ${max}`

/** A contract with `count` criteria, on lines 5 onwards (`- Criterion N` ends at column 14). */
const history = (count: number) =>
  '### C-07: OrderHistory\n\n**Verification:** verify\n**Acceptance Criteria:**\n' +
  Array.from({length: count}, (_, index) => `- Criterion ${index + 1}\n`).join('')

// Six criteria: one over the default maximum of 5.
const six = history(6)
const warning = expected('10:3-10:14', reason(6, 5))
const error = expected('10:3-10:14', reason(6, 5), {fatal: true})

describe('contractRule: severity', () => {
  it('is a warning by default, and with `warn`, `1` or `true`', async () => {
    expect(await check(six)).toEqual([warning])
    expect(await check(six, ['warn'])).toEqual([warning])
    expect(await check(six, [1])).toEqual([warning])
    expect(await check(six, true)).toEqual([warning])
  })

  it('is fatal with `error` or `2`', async () => {
    expect(await check(six, ['error'])).toEqual([error])
    expect(await check(six, [2])).toEqual([error])
  })

  it('is off with `false`, `off` or `0`', async () => {
    expect(await check(six, false)).toEqual([])
    expect(await check(six, ['off'])).toEqual([])
    expect(await check(six, [false])).toEqual([])
    expect(await check(six, [0])).toEqual([])
  })

  it('stays on with a bare `off`: unified-lint-rule reads a label only as the first item of a list', async () => {
    expect(await check(six, 'off')).toEqual([warning])
  })

  it('takes options after a severity', async () => {
    expect(await check(history(2), ['error', {max: 1}])).toEqual([expected('6:3-6:14', reason(2, 1), {fatal: true})])
    expect(await check(history(2), [2, 1])).toEqual([expected('6:3-6:14', reason(2, 1), {fatal: true})])
    expect(await check(history(2), ['warn', {max: 1}])).toEqual([expected('6:3-6:14', reason(2, 1))])
    expect(await check(history(6), ['error', {max: 8}])).toEqual([])
  })

  it('does not run the rule when off, so its options are not even read', async () => {
    expect(await check(six, ['off', {max: -1}])).toEqual([])
    expect(await check(six, [0, {max: -1}])).toEqual([])
  })

  it('can be turned off in a document with a comment naming the rule', async () => {
    expect(await check(`<!--lint disable ${ruleId}-->\n\n` + six)).toEqual([])
    // Another rule’s name leaves it on.
    expect(await check('<!--lint disable verification-tier-->\n\n' + six)).toEqual([expected('12:3-12:14', reason(6, 5))])
  })
})

describe('contractRule: messages as remark-lint’s', () => {
  it('carry `ancestors`, the path to the node at their place, and a second field a `cause` at the first', async () => {
    const {unified} = await import('unified')
    const {default: remarkParse} = await import('remark-parse')
    const {default: remarkLintContractFieldName} = await import('remark-lint-contract-field-name')
    const {VFile} = await import('vfile')
    const file = new VFile({
      path: 'CONTRACTS.md',
      value: '### C-01: Grid\n\n**Verification:** verify\n**Acceptance Criteria:**\n- cards\n\n**Verification:** auto\n'
    })
    const processor = unified().use(remarkParse).use(remarkLintContractFieldName)
    await processor.run(processor.parse(file), file)
    const [message] = file.messages
    expect(message?.reason).toBe('Unexpected second `Verification` field in C-01 Grid, expected each field once')
    expect(message?.ancestors?.map((node) => node.type)).toEqual(['root', 'paragraph', 'strong', 'text'])
    expect(message?.ancestors?.at(-1)?.position?.start).toEqual({line: 7, column: 3, offset: 77})
    const cause = message?.cause as {reason: string; place: unknown; ruleId: string; source: string} | undefined
    expect({reason: cause?.reason, place: cause?.place, ruleId: cause?.ruleId, source: cause?.source}).toEqual({
      reason: 'First `Verification` field of C-01 Grid',
      place: {start: {line: 3, column: 3, offset: 18}, end: {line: 3, column: 15, offset: 30}},
      ruleId: 'contract-field-name',
      source: 'remark-lint'
    })
  })
})
