import remarkLintContractFrontmatter from 'remark-lint-contract-frontmatter'
import {describe, expect, it} from 'vitest'
import {ruleHarness} from '../../../test/helpers/rule-harness.js'

const ruleId = 'contract-frontmatter'
const {expected, check} = ruleHarness(ruleId, remarkLintContractFrontmatter)

const syntax = (place: string, error: string, fatal = false) =>
  expected(place, `Unexpected invalid YAML in frontmatter (${error}), expected valid YAML`, {actual: error, fatal})
const shape = (place: string, subject: string, actual: string, fix: string) =>
  expected(place, `Unexpected \`${subject}\` as ${actual}, expected ${fix}`, {actual})
/** An item of a list field of the wrong shape. */
const itemShape = (place: string, subject: string, actual: string) =>
  expected(place, `Unexpected item of \`${subject}\` as ${actual}, expected a string or \`text:\``, {actual})

const nested = 'Nested mappings are not allowed in compact mappings'

describe('remark-lint-contract-frontmatter', () => {
  describe('YAML syntax', () => {
    it('reports frontmatter that does not parse, at the error', async () => {
      expect(await check('---\nid: C-01\nverification: verify: auto\n---\n\n# C-01: CartTotal\n')).toEqual([syntax('3:15-3:16', nested)])
    })

    it('reports the first error only', async () => {
      expect(await check('---\nid: C-01\n  contract: x\nsteps: [a\n---\n')).toEqual([syntax('2:5-2:6', nested)])
    })

    it('reports broken frontmatter when a line of it names a contract', async () => {
      expect(await check('---\ntitle: "unclosed\nverification: verify\n---\n\n# Notes\n')).toEqual([syntax('3:20-3:21', 'Missing closing "quote')])
    })

    it('leaves broken frontmatter that names no contract alone (an agent definition)', async () => {
      expect(await check('---\nname: planner\nmodel: set at run time (default: large)\n---\n\nYou plan.\n')).toEqual([])
    })

    it('places errors with CRLF line endings', async () => {
      expect(await check('---\r\nid: C-06\r\nverification: x: y\r\n---\r\n')).toEqual([syntax('3:15-3:16', nested)])
    })
  })

  describe('field shapes', () => {
    it('accepts the example contract', async () => {
      const value = [
        '---',
        'id: C-06',
        'contract: ExportCsv',
        'slice: S-02',
        'verification: verify',
        'acceptance_criteria:',
        '  - Clicking "Export" downloads campaigns.csv with one row per campaign',
        '  - text: Amounts in the file use the account currency',
        '    verify:',
        '      method: bash',
        '      command: npm test -- csv',
        '      timeout: 60',
        'steps:',
        '  - Open /campaigns and click "Export"',
        '---',
        '',
        '# C-06: ExportCsv',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([])
    })

    it('reports acceptance criteria or steps given as text, on the text', async () => {
      const value = '---\nid: C-06\nverification: verify\nacceptance_criteria: A refund can be requested from the order page\nsteps: Click Refund\n---\n'
      expect(await check(value)).toEqual([shape('4:22-4:67', 'acceptance_criteria', 'text', 'a list'), shape('5:8-5:20', 'steps', 'text', 'a list')])
    })

    it('quotes the key as written', async () => {
      expect(await check('---\nid: C-06\nSteps: run it\n---\n')).toEqual([shape('3:8-3:14', 'Steps', 'text', 'a list')])
    })

    it('places shape problems with CRLF line endings', async () => {
      expect(await check('---\r\nid: C-06\r\nsteps: run\r\n---\r\n')).toEqual([shape('3:8-3:11', 'steps', 'text', 'a list')])
    })

    it('reports a list or a mapping where text is expected, on the whole entry', async () => {
      const value = '---\nid: C-06\nverification: [auto]\nslice:\n  id: S-02\n---\n'
      expect(await check(value)).toEqual([shape('3:1-3:21', 'verification', 'a list', 'text'), shape('4:1-5:11', 'slice', 'a mapping', 'text')])
    })

    it('reports a mapping where a list is expected', async () => {
      expect(await check('---\nid: C-06\nsteps: {one: Click Export}\n---\n')).toEqual([shape('3:1-3:27', 'steps', 'a mapping', 'a list')])
    })

    it('reports items that are mappings without `text`, or lists', async () => {
      const value = [
        '---',
        'id: C-06',
        'acceptance_criteria:',
        '  - verify:',
        '      method: manual',
        '  - text: Amounts use the account currency',
        'steps:',
        '  - - Open /campaigns',
        '    - Click Export',
        '  - Open the file',
        '---',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([itemShape('4:5-5:21', 'acceptance_criteria', 'a mapping without `text`'), itemShape('8:5-9:19', 'steps', 'a list')])
      expect((await check(value)).map((message) => message.reason)).toEqual([
        'Unexpected item of `acceptance_criteria` as a mapping without `text`, expected a string or `text:`',
        'Unexpected item of `steps` as a list, expected a string or `text:`'
      ])
    })

    it('quotes the key of a bad item as written', async () => {
      const value = '---\nid: C-06\nAcceptance-Criteria:\n  - text: ""\n  - [a, b]\n---\n'
      expect((await check(value)).map((message) => [message.place, message.reason])).toEqual([
        ['4:5-4:13', 'Unexpected item of `Acceptance-Criteria` as a mapping without `text`, expected a string or `text:`'],
        ['5:5-5:11', 'Unexpected item of `Acceptance-Criteria` as a list, expected a string or `text:`']
      ])
    })

    it('leaves empty values alone', async () => {
      expect(await check('---\nid: C-06\nverification:\nacceptance_criteria:\nsteps: []\n---\n')).toEqual([])
    })

    it('leaves keys the contract model does not read alone, whatever their shape', async () => {
      const value = [
        '---',
        'id: C-06',
        'contract: ExportCsv',
        'verification: verify',
        'acceptance_criteria:',
        '  - A file downloads',
        'tags: [export, csv]',
        'dependencies:',
        '  - C-02',
        '  - id: C-03',
        'owner:',
        '  team: payments',
        '---',
        ''
      ].join('\n')
      expect(await check(value)).toEqual([])
    })

    it('leaves frontmatter that is no contract alone', async () => {
      expect(await check('---\ntitle: Notes\nsteps-taken: [a]\ntags: {a: 1}\n---\n\n# Notes\n')).toEqual([])
      expect(await check('---\n- a\n- b\n---\n')).toEqual([])
      expect(await check('---\n---\n\n# Empty\n')).toEqual([])
    })

    it('leaves documents without frontmatter alone, one-line body values included', async () => {
      expect(await check('### C-01: CartTotal\n\n**Verification:** verify\n**Steps:** run it\n')).toEqual([])
    })

    it('reports a lone string in frontmatter but not the one-line value of the body', async () => {
      const value = '---\nid: C-06\nsteps: Click Export\n---\n\n# C-06: ExportCsv\n\n**Acceptance Criteria:** A file downloads\n'
      expect(await check(value)).toEqual([shape('3:8-3:20', 'steps', 'text', 'a list')])
    })
  })
})
