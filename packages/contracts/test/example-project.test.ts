import {readFile} from 'node:fs/promises'
import {analyzeContracts} from '@verification-tiers/contracts'
import type {Contract, ContractAnalysis} from '@verification-tiers/contracts'
import type {Root} from 'mdast'
import remarkFrontmatter from 'remark-frontmatter'
import remarkParse from 'remark-parse'
import preset from 'remark-preset-lint-verification-tiers'
import {unified} from 'unified'
import {VFile} from 'vfile'
import {describe, expect, it} from 'vitest'
import {span} from './helpers.js'

const project = new URL('../../../content/examples/greenlight-project/.greenlight/', import.meta.url)

async function load(name: string): Promise<{file: VFile; tree: Root; analysis: ContractAnalysis}> {
  const file = new VFile({path: name, value: await readFile(new URL(name, project), 'utf8')})
  const tree: Root = unified().use(remarkParse).use(remarkFrontmatter).parse(file)
  return {file, tree, analysis: analyzeContracts(tree, file)}
}

function summary(contract: Contract) {
  return {
    label: contract.label,
    dialect: contract.dialect,
    tier: contract.tier,
    effectiveTier: contract.effectiveTier,
    criteria: contract.criteria.length,
    steps: contract.steps.length,
    slice: contract.slice,
    sliceHeading: contract.sliceHeading?.id ?? null,
    position: span(contract.position),
    headingPosition: span(contract.headingPosition)
  }
}

describe('the greenlight example project', () => {
  it('reads every contract of CONTRACTS.md', async () => {
    const {analysis} = await load('CONTRACTS.md')
    expect(analysis.problems).toEqual([])
    expect(analysis.contracts.map(summary)).toEqual([
      {
        label: 'C-01 CampaignCardGrid',
        dialect: 'bold',
        tier: 'verify',
        effectiveTier: 'verify',
        criteria: 3,
        steps: 2,
        slice: 'S-01',
        sliceHeading: 'S-01',
        position: '8:1-45:23',
        headingPosition: '8:1-8:27'
      },
      {
        label: 'C-02 CampaignSummaryApi',
        dialect: 'bold',
        tier: 'auto',
        effectiveTier: 'auto',
        criteria: 0,
        steps: 0,
        slice: 'S-01',
        sliceHeading: 'S-01',
        position: '47:1-52:23',
        headingPosition: '47:1-47:29'
      },
      {
        label: 'C-03 CampaignStatusBadge',
        dialect: 'fenced',
        tier: 'verify',
        effectiveTier: 'verify',
        criteria: 2,
        steps: 1,
        slice: 'S-01',
        sliceHeading: 'S-01',
        position: '54:1-71:4',
        headingPosition: '54:1-54:30'
      },
      {
        label: 'C-04 FormatSpend',
        dialect: 'comment',
        tier: 'auto',
        effectiveTier: 'auto',
        criteria: 0,
        steps: 0,
        slice: 'S-02',
        sliceHeading: 'S-02',
        position: '75:1-82:4',
        headingPosition: '75:1-75:22'
      },
      {
        label: 'C-05 SpendColumnHeader',
        dialect: 'bold',
        tier: null,
        effectiveTier: 'verify',
        criteria: 0,
        steps: 0,
        slice: 'S-02',
        sliceHeading: 'S-02',
        position: '84:1-89:66',
        headingPosition: '84:1-84:28'
      }
    ])
  })

  it('reads the fields of C-01 (bold), C-03 (fenced) and C-04 (comment) in order, with positions', async () => {
    const {analysis} = await load('CONTRACTS.md')
    const fields = (index: number) =>
      analysis.contracts[index]!.fields.map((field) => [field.key, field.value, span(field.labelPosition), span(field.valuePosition)])
    expect(fields(0)).toEqual([
      ['boundary', 'CampaignList component -> rendered card grid', '10:3-10:11', '10:15-10:59'],
      ['slice', 'S-01', '11:3-11:8', '11:12-11:16'],
      // The `typescript` block after `**Input:**` is code, not a contract block.
      ['input', '', '13:3-13:8', null],
      ['output', 'a grid of cards, one per campaign.', '21:3-21:9', '21:13-21:47'],
      ['errors', '', '23:3-23:9', null],
      ['invariants', '', '29:3-29:13', null],
      ['security', '', '32:3-32:11', null],
      ['verification', 'verify', '35:3-35:15', '35:19-35:25'],
      ['acceptanceCriteria', '', '36:3-36:22', null],
      ['steps', '', '41:3-41:8', null],
      ['dependencies', 'C-02', '45:3-45:15', '45:19-45:23']
    ])
    expect(fields(2)).toEqual([
      ['contract', 'CampaignStatusBadge', '57:1-57:9', '57:11-57:30'],
      ['boundary', 'StatusBadge component -> coloured badge', '58:1-58:9', '58:11-58:50'],
      ['slice', 'S-01', '59:1-59:6', '59:8-59:12'],
      ['invariants', '', '61:1-61:11', null],
      ['verification', 'verify', '64:1-64:13', '64:15-64:21'],
      ['acceptanceCriteria', '', '65:1-65:20', null],
      ['steps', '', '68:1-68:6', null],
      ['dependencies', 'None', '70:1-70:13', '70:15-70:19']
    ])
    expect(fields(3)).toEqual([
      ['contract', 'FormatSpend', '78:4-78:12', '78:14-78:25'],
      ['boundary', 'formatSpend(amount, currency) -> display string', '79:4-79:12', '79:14-79:61'],
      ['slice', 'S-02', '80:4-80:9', '80:11-80:15'],
      ['verification', 'auto', '81:4-81:16', '81:18-81:22']
    ])
  })

  it('reads the criteria and steps as written', async () => {
    const {analysis} = await load('CONTRACTS.md')
    const items = (index: number) => ({
      criteria: analysis.contracts[index]!.criteria.map((item) => [item.text, span(item.position)]),
      steps: analysis.contracts[index]!.steps.map((item) => [item.text, span(item.position)])
    })
    expect(items(0)).toEqual({
      criteria: [
        ['Campaigns render as cards in a 3-column grid on a 1280px wide screen', '37:3-37:71'],
        ['Each card shows the campaign name, its status and its spend', '38:3-38:62'],
        ['Clicking a card opens /campaigns/{id}', '39:3-39:40']
      ],
      steps: [
        ['Run `npm run dev` and open http://localhost:3000/campaigns', '42:4-42:62'],
        ['Resize the window to 1280px wide and count the columns', '43:4-43:58']
      ]
    })
    expect(items(2)).toEqual({
      criteria: [
        ['A paused campaign shows a grey "Paused" badge', '66:5-66:50'],
        ['A live campaign shows a green "Live" badge', '67:5-67:47']
      ],
      steps: [['Open /campaigns and pause one campaign', '69:5-69:43']]
    })
  })

  it('reads contracts/C-06.md as one frontmatter contract', async () => {
    const {analysis} = await load('contracts/C-06.md')
    expect(analysis.problems).toEqual([])
    expect(analysis.contracts.map(summary)).toEqual([
      {
        label: 'C-06 ExportCsv',
        dialect: 'frontmatter',
        tier: 'verify',
        effectiveTier: 'verify',
        criteria: 2,
        steps: 1,
        slice: 'S-02',
        sliceHeading: null,
        position: '1:1-15:44',
        headingPosition: '3:1-3:20'
      }
    ])
    const [contract] = analysis.contracts
    expect(contract!.criteria.map((item) => [item.text, span(item.position)])).toEqual([
      ['Clicking "Export" downloads campaigns.csv with one row per campaign', '7:5-7:72'],
      ['Amounts in the file use the account currency', '8:5-8:49']
    ])
    expect(contract!.steps.map((item) => [item.text, span(item.position)])).toEqual([['Open /campaigns and click "Export"', '10:5-10:39']])
    expect(contract!.fields.map((field) => [field.label, field.dialect])).toEqual([
      ['id', 'frontmatter'],
      ['contract', 'frontmatter'],
      ['slice', 'frontmatter'],
      ['verification', 'frontmatter'],
      ['acceptance_criteria', 'frontmatter'],
      ['steps', 'frontmatter'],
      ['Boundary', 'bold']
    ])
  })

  it('agrees with GRAPH.json on which contracts each slice holds', async () => {
    const graph = JSON.parse(await readFile(new URL('GRAPH.json', project), 'utf8')) as {
      slices: Record<string, {contracts: string[]}>
    }
    const contracts = [...(await load('CONTRACTS.md')).analysis.contracts, ...(await load('contracts/C-06.md')).analysis.contracts]
    const bySlice: Record<string, string[]> = {}
    for (const contract of contracts) (bySlice[contract.slice!] ??= []).push(contract.id!)
    expect(bySlice).toEqual(Object.fromEntries(Object.entries(graph.slices).map(([id, slice]) => [id, slice.contracts])))
  })

  it('lints with the preset: only C-05 lacks criteria', async () => {
    for (const name of ['CONTRACTS.md', 'contracts/C-06.md']) {
      const file = new VFile({path: name, value: await readFile(new URL(name, project), 'utf8')})
      const processor = unified().use(remarkParse).use(preset)
      await processor.run(processor.parse(file), file)
      expect(
        file.messages.map((message) => ({
          reason: message.reason,
          line: message.line,
          column: message.column,
          ruleId: message.ruleId,
          source: message.source
        }))
      ).toEqual(
        name === 'CONTRACTS.md'
          ? [
              {
                reason:
                  'Unexpected contract C-05 SpendColumnHeader without acceptance criteria or steps (its tier defaults to `verify`), expected at least one criterion or step, or `Verification: auto`',
                line: 84,
                column: 1,
                ruleId: 'verify-tier-criteria',
                source: 'remark-lint'
              }
            ]
          : []
      )
    }
  })
})
