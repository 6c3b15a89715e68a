import remarkLintGsdVerification from 'remark-lint-gsd-verification'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'
import {lintAt} from '../../../test/helpers/lint-at.js'

const {url} = ruleHarness('gsd-verification', remarkLintGsdVerification)
const lint = (path: string, value: string) => lintAt(path, value, [remarkLintGsdVerification])

const passed = `---
phase: 03-search
status: passed
human_verification:
  - test: "Search for a title on a phone"
    expected: "The book shows first"
overrides:
  - must_have: "Manual check of the result order"
    accepted_by: "orchestrator"
---

# Phase 3: Search — Verification Report
`

describe('remark-lint-gsd-verification', () => {
  it('reports a passed verification that lists a human check, and an override of a person’s check, at their lines', async () => {
    expect(await lint('.planning/phases/03-search/03-VERIFICATION.md', passed)).toEqual([
      '3:1-3:15: Unexpected `status: passed` with 1 human check listed in human_verification, expected `status: human_needed`: a phase passes only when no check is left to a person (gsd-verification)',
      '8:3-8:50: Unexpected override of a person\'s check ("Manual check of the result order"), expected the check asked of a person: an override the agent writes answers for no one (gsd-verification)'
    ])
  })

  it('gives no message on a verification that leaves its checks to a person, nor on another file', async () => {
    expect(
      await lint(
        '/repo/.planning/phases/03-search/03-VERIFICATION.md',
        passed.replace('status: passed', 'status: human_needed').replace(/overrides:[\s\S]*?---/, '---')
      )
    ).toEqual([])
    for (const path of ['.planning/phases/03-search/03-01-PLAN.md', '.planning/quick/1-typo/1-VERIFICATION.md', 'docs/03-VERIFICATION.md', 'CONTRACTS.md']) {
      expect(await lint(path, passed)).toEqual([])
    }
  })

  it('links its messages to its readme', () => {
    expect(url).toBe('https://github.com/verification-tiers/verification-tiers/tree/main/packages/remark-lint-gsd-verification#readme')
  })
})
