import remarkLintEarsShall from 'remark-lint-ears-shall'
import {describe, expect, it} from 'vitest'
import {lintAt} from '../../../test/helpers/lint-at.js'

const lint = (path: string, value: string) => lintAt(path, value, [remarkLintEarsShall])

const requirements = (criteria: string) => `# Requirements Document\n\n### Requirement 1: Borrow a tool\n\n#### Acceptance Criteria\n\n${criteria}\n`

describe('remark-lint-ears-shall', () => {
  it('reports each EARS criterion without SHALL, at the criterion', async () => {
    const value = requirements(
      '1. WHEN a member scans a tool THEN it is lent\n2. IF the tool is broken THEN the desk sees a warning\n3. WHILE a loan is open the tool stays lent\n4. WHERE fines apply the member pays\n5. THE desk lists every loan'
    )
    expect(await lint('.kiro/specs/tools/requirements.md', value)).toEqual([
      '7:4-7:46: Unexpected EARS acceptance criterion without SHALL on Requirement 1: Borrow a tool, expected `WHEN … THE <system> SHALL <response>` (ears-shall)',
      '8:4-8:54: Unexpected EARS acceptance criterion without SHALL on Requirement 1: Borrow a tool, expected `IF … THE <system> SHALL <response>` (ears-shall)',
      '9:4-9:44: Unexpected EARS acceptance criterion without SHALL on Requirement 1: Borrow a tool, expected `WHILE … THE <system> SHALL <response>` (ears-shall)',
      '10:4-10:37: Unexpected EARS acceptance criterion without SHALL on Requirement 1: Borrow a tool, expected `WHERE … THE <system> SHALL <response>` (ears-shall)',
      '11:4-11:29: Unexpected EARS acceptance criterion without SHALL on Requirement 1: Borrow a tool, expected `THE <system> SHALL <response>` (ears-shall)'
    ])
  })

  it('accepts SHALL in any case, other forms and other languages', async () => {
    const value = requirements(
      '1. WHEN a member scans a tool THEN the system SHALL lend it\n2. when the tool is broken the system shall warn\n3. Members see their loans\n4. 会員が工具をスキャンしたとき、システムは貸出を記録する\n5. Whenever it rains the app is closed\n6. Theme colours follow the system\n7. WHEN 会員がログインする THEN システムは一覧を表示しなければならない'
    )
    expect(await lint('/repo/.kiro/specs/tools/requirements.md', value)).toEqual([])
  })

  it('reads no other file', async () => {
    const value = requirements('1. WHEN a member scans a tool THEN it is lent')
    for (const path of ['CONTRACTS.md', '.kiro/specs/tools/design.md', 'specs/tools/requirements.md']) {
      expect(await lint(path, value)).toEqual([])
    }
  })
})
