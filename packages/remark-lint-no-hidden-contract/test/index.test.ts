import remarkLintNoHiddenContract from 'remark-lint-no-hidden-contract'
import remarkPresetLintVerificationTiers from 'remark-preset-lint-verification-tiers'
import remarkParse from 'remark-parse'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'no-hidden-contract'
const {expected, check} = ruleHarness(ruleId, remarkLintNoHiddenContract)

const checkout = '### C-02: Checkout\n\n**Verification:** verify\n**Acceptance Criteria:**\n- Paying with a saved card needs no retyping\n'

describe('remark-lint-no-hidden-contract', () => {
  it('accepts contracts the reader reads, and an example in a fence with a language', async () => {
    expect(await check('<img src="cart.png">\n\n' + checkout + '\n```markdown\n### C-99: Example\n```\n')).toEqual([])
  })

  it('reports a heading right after HTML, with what to do', async () => {
    expect(await check('<img src="mockup.png">\n' + checkout)).toEqual([
      expected(
        '2:1-2:19',
        'Unexpected contract heading `### C-02: Checkout` inside an HTML block, expected a heading the reader sees: add a blank line between the HTML and the heading'
      )
    ])
  })

  it('reports every heading after an unclosed comment', async () => {
    expect(await check('<!-- todo\n\n### C-01: Cart\n\n' + checkout)).toEqual([
      expected(
        '3:1-3:15',
        'Unexpected contract heading `### C-01: Cart` inside an unclosed HTML comment, expected a heading the reader sees: close the comment with `-->` above it'
      ),
      expected(
        '5:1-5:19',
        'Unexpected contract heading `### C-02: Checkout` inside an unclosed HTML comment, expected a heading the reader sees: close the comment with `-->` above it'
      )
    ])
  })

  it('quotes a heading that holds backticks', async () => {
    expect(await check('<br>\n### C-02: `checkout()`\n')).toEqual([
      expected(
        '2:1-2:23',
        'Unexpected contract heading `` ### C-02: `checkout()` `` inside an HTML block, expected a heading the reader sees: add a blank line between the HTML and the heading'
      )
    ])
  })

  it('is an error in the preset', async () => {
    const file = new VFile({path: 'CONTRACTS.md', value: '###C-02: Checkout\n'})
    const processor = unified().use(remarkParse).use(remarkPresetLintVerificationTiers)
    await processor.run(processor.parse(file), file)
    expect(file.messages.map((message) => [message.ruleId, message.fatal, message.reason])).toEqual([
      [
        ruleId,
        true,
        'Unexpected contract heading `###C-02: Checkout` without a space after the `#`, expected a heading the reader sees: add a space after the `#`'
      ]
    ])
  })
})
