/** The BMAD reader: story files of `_bmad-output/implementation-artifacts` as slices and contracts, their open tasks. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {isBmadCompanion, isBmadSpec, isBmadStory, parseMarkdownText, readBmadSpec, readBmadStory} from '@verification-tiers/spec-tools'
import {afterAll, describe, expect, it} from 'vitest'
import {loadProject} from '@verification-tiers/project'
import {bmad} from '../lib/tools/bmad.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const shop = path.join(fixtures, 'bmad-bike-shop')
const stories = path.join(shop, 'implementation-artifacts')
const verify = {defaultTier: 'verify', optionalTasks: 'show'} as const
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

describe('bmad', () => {
  it('is the `_bmad-output` folder, recognised by a story file in implementation-artifacts', async () => {
    expect([bmad.name, bmad.folder]).toEqual(['bmad', '_bmad-output'])
    const candidates = [shop, path.join(fixtures, 'gsd-reading-room'), path.join(fixtures, 'no-such-folder')]
    expect(await Promise.all(candidates.map((folder) => bmad.recognises(folder)))).toEqual([true, false, false])
    // A folder of Build specs and no story yet is BMAD's too: its specs are slices.
    const specsOnly = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-bmad-specs-'))
    folders.push(specsOnly)
    await fs.mkdir(path.join(specsOnly, 'implementation-artifacts'))
    await fs.writeFile(
      path.join(specsOnly, 'implementation-artifacts', 'spec-qr-join.md'),
      "---\ntitle: 'Join by QR code'\nstatus: 'done'\n---\n\n## Tasks & Acceptance\n\n**Acceptance Criteria:**\n- Given a game, when a player scans its code, then the player joins it\n"
    )
    expect(await bmad.recognises(specsOnly)).toBe(true)
    expect((await bmad.read(specsOnly, verify)).slices.map((slice) => [slice.id, slice.name, slice.contracts[0]!.contract.criteria.length])).toEqual([
      ['spec-qr-join', 'Spec: Join by QR code', 1]
    ])
  })

  it('reads each story file as a slice and its contract, one criterion per acceptance criterion however it is written', async () => {
    const reading = await bmad.read(shop, verify)
    expect(
      reading.slices.map((slice) => [
        slice.id,
        slice.name,
        slice.contracts.map(({contract, file}) => [
          contract.label,
          path.relative(stories, file),
          contract.effectiveTier,
          contract.criteria.map((item) => [item.position.start.line, item.text])
        ])
      ])
    ).toEqual([
      [
        '1-1-book-a-repair',
        'Story 1.1: Book a repair',
        [
          [
            'Story 1.1: Book a repair',
            '1-1-book-a-repair.md',
            'verify',
            [
              [
                17,
                'Given the booking page When the cyclist picks a free slot and a repair type Then the slot is held for them And a confirmation shows the slot and the price'
              ],
              [20, 'Given a slot booked by someone else When the cyclist picks it Then it is refused with a message'],
              [24, 'Given a day the shop is closed When the cyclist opens it Then no slot is offered']
            ]
          ]
        ]
      ],
      [
        '1-2-track-a-repair',
        'Story 1.2: Track a repair',
        [
          [
            'Story 1.2: Track a repair',
            '1-2-track-a-repair.md',
            'verify',
            [
              [7, 'AC1 — Status page Given a booked repair When the cyclist opens its link Then the page shows where the repair stands'],
              [
                13,
                'AC2 — Ready message Given a repair marked ready When the mechanic saves it Then the cyclist gets one message saying so the message names the bike'
              ]
            ]
          ]
        ]
      ],
      [
        '2-1-pay-online',
        'Story 2.1: Pay online',
        [
          [
            'Story 2.1: Pay online',
            '2-1-pay-online.md',
            'verify',
            [
              [7, 'AC1: Card payment Given a finished repair, when the cyclist pays by card, then the receipt lists: the repair; the parts; the total'],
              [15, 'AC2: Refused card Given a refused card, when the cyclist pays, then the page says so and nothing is charged']
            ]
          ]
        ]
      ],
      [
        'spec-fix-receipt-typo',
        'Spec: Fix the total on the receipt',
        [
          [
            'Spec: Fix the total on the receipt',
            'spec-fix-receipt-typo.md',
            'verify',
            [
              [22, 'Given a paid repair, when the receipt prints, then its last line reads "Total"'],
              [23, 'Given a taxed part, when the receipt prints, then a tax line shows before the total']
            ]
          ]
        ]
      ]
    ])
    expect(reading.problems).toEqual([])
  })

  it('counts the unticked boxes of Tasks / Subtasks and open review findings as open tasks, never a status or a box elsewhere', async () => {
    const reading = await bmad.read(shop, verify)
    expect(reading.slices.map((slice) => [slice.id, slice.openTasks.map((task) => `${path.relative(stories, task.file)}:${task.line}: ${task.text}`)])).toEqual(
      [
        [
          '1-1-book-a-repair',
          ['1-1-book-a-repair.md:30: Test a double booking', '1-1-book-a-repair.md:35: [Review][Patch] The price is shown without tax [booking.ts:40]']
        ],
        ['1-2-track-a-repair', []],
        ['2-1-pay-online', ['2-1-pay-online.md:23: Task 1: Card form']],
        ['spec-fix-receipt-typo', ['spec-fix-receipt-typo.md:19: `receipt.ts` -- add the tax line -- the missing tax']]
      ]
    )
  })

  it('tells a story file from the folder’s other files, and reports a story without acceptance criteria', () => {
    expect(
      ['# Story 1.1: A\n', '---\nbaseline_commit: x\n---\n\n# Story 2.3 - B\n', '# Story se1-2: C\n', '\uFEFF# Story Supp-1: Cancel\n'].map(isBmadStory)
    ).toEqual([true, true, true, true])
    expect(
      ['# Deferred work\n', '---\ntitle: x\n---\n\n## Intent\n', 'Intro\n\n# Story 1.1: A\n', '# Story: no number\n', '# Story 1.7 Testing Summary\n'].map(
        isBmadStory
      )
    ).toEqual([false, false, false, false, false])
    // A story's companion names no part of the story template: a bold label, a setext or deeper heading still makes a story.
    expect(
      [
        '# Story 3.1: Spike — Decision Document\n\n**Status**: GO\n\n## 1. Options\n',
        '# Story 1.2: A\n\n**Acceptance Criteria:**\n\n1. Given x, then y\n',
        '# Story 1.3: B\n\nAcceptance Criteria\n---\n'
      ].map(isBmadCompanion)
    ).toEqual([true, false, false])
    expect(readBmadStory('3-1-x.md', '# Story 3.1: Empty\n\nStatus: draft\n', {slice: '3-1-x', defaultTier: 'verify'}).problems).toEqual([
      {
        file: '3-1-x.md',
        line: 1,
        message: 'Unexpected story without acceptance criteria, expected `## Acceptance Criteria` with numbered Given/When/Then items'
      }
    ])
    expect(readBmadStory('3-1-x.md', '# Story 3.1: A\n\n**Status:** done\n', {slice: '3-1-x', defaultTier: 'verify'}).status).toBe('done')
  })

  it('skips a story’s companion beside the story of its number, reads one alone, and names a story file it cannot read as one', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-bmad-companion-'))
    folders.push(dir)
    const folder = path.join(dir, 'implementation-artifacts')
    await fs.mkdir(folder)
    const companion = '# Story 3.1: Spike — Decision Document\n\n**Status**: GO\n\n## 1. Options\n'
    await fs.writeFile(path.join(folder, '3-1-spike.md'), '# Story 3.1: Spike\n\nStatus: done\n\n## Acceptance Criteria\n\n1. Given a spike, then a decision\n')
    await fs.writeFile(path.join(folder, '3-1-spike-decision.md'), companion)
    await fs.writeFile(path.join(folder, '4-1-alone-decision.md'), companion.replace('3.1', '4.1'))
    // Named as a story, read as none: a heading markup hid, or no story heading at all.
    await fs.writeFile(path.join(folder, '5-1-hidden.md'), '> # Story 5.1: Hidden\n\n## Acceptance Criteria\n\n1. Given x, then y\n')
    await fs.writeFile(path.join(folder, '5-2-retitled.md'), '# Spike 5.2: Retitled\n\n## Acceptance Criteria\n\n1. Given x, then y\n')
    await fs.writeFile(path.join(folder, 'deferred-work.md'), '# Deferred work\n')
    // A story moved into a subfolder, or renamed to `.MD`, is still read.
    await fs.mkdir(path.join(folder, 'epic-6'))
    await fs.writeFile(path.join(folder, 'epic-6', '6-1-moved.md'), '# Story 6.1: Moved\n\n## Acceptance Criteria\n\n1. Given x, then y\n')
    await fs.writeFile(path.join(folder, '6-2-shouting.MD'), '# Story 6.2: Shouting\n\n## Acceptance Criteria\n\n1. Given x, then y\n')
    const reading = await bmad.read(dir, verify)
    expect(reading.slices.map((slice) => slice.id).sort()).toEqual(['3-1-spike', '4-1-alone-decision', '6-1-moved', '6-2-shouting'])
    expect(reading.problems.map((problem) => [path.basename(problem.file), problem.line, problem.message])).toEqual([
      ['4-1-alone-decision.md', 1, 'Unexpected story without acceptance criteria, expected `## Acceptance Criteria` with numbered Given/When/Then items'],
      ['5-1-hidden.md', 1, expect.stringMatching(/^Unexpected /)],
      [
        '5-2-retitled.md',
        1,
        'Unexpected story file whose first heading is no `# Story N.M: Title`, expected that heading first, as BMAD writes its stories; tiers does not read it'
      ]
    ])
  })

  it('reads Given paragraphs as one criterion each, a list after a Then part of it', () => {
    const text =
      '# Story 5.4: Audit\n\n## Acceptance Criteria\n\n**Given** a query\n**When** it runs\n**Then** one audit row holds:\n\n- the user\n- the time\n\n**Given** a failed query\n**Then** the row says why\n\n## Tasks / Subtasks\n\n- [ ] Log it\n'
    const story = readBmadStory('5-4-audit.md', text, {slice: '5-4-audit', defaultTier: 'verify'})
    expect(story.story?.contract.criteria.map((item) => [item.text, item.position.start.line, item.position.end.line])).toEqual([
      ['Given a query When it runs Then one audit row holds: the user; the time', 5, 10],
      ['Given a failed query Then the row says why', 12, 13]
    ])
  })

  it('keeps a Then’s numbered list in its Given criterion, makes a listed Given its own, and covers the whole criteria section in what an approval pins', () => {
    const read = (body: string) =>
      readBmadStory('1-1-x.md', `# Story 1.1: Form\n\n## Acceptance Criteria\n\n${body}\n## Dev Notes\n\nNotes.\n`, {slice: '1-1-x', defaultTier: 'verify'})
        .story!
    const numbered = read('**Given** the form\n**Then** it shows:\n\n1. a name field\n2. an email field\n\n**Given** a saved form\n**Then** it says so\n')
    expect(numbered.contract.criteria.map((item) => item.text)).toEqual([
      'Given the form Then it shows: a name field; an email field',
      'Given a saved form Then it says so'
    ])
    const listed = read('Given A, then a\n\n- Given B, then b\n- Given C, then c\n')
    expect(listed.contract.criteria.map((item) => item.text)).toEqual(['Given A, then a', 'Given B, then b', 'Given C, then c'])
    // The last `### AC` heading's body, and a note after the criteria, are in what an approval covers; Dev Notes are not.
    const headed = read('### AC1: Save\n\n- **Given** a form\n- **Then** it is kept within 5 minutes\n\nA note.\n')
    expect([
      headed.contract.criteria.map((item) => item.text),
      headed.source.includes('within 5 minutes'),
      headed.source.includes('A note.'),
      headed.source.includes('Notes.')
    ]).toEqual([['AC1: Save Given a form; Then it is kept within 5 minutes A note.'], true, true, false])
  })

  it('leaves the status out of what an approval covers, line for line: the workflow moves it', () => {
    const sourceOf = (status: string) =>
      readBmadStory('1-1-x.md', `# Story 1.1: A\n\n${status}\n\n## Acceptance Criteria\n\n1. Given x, then y\n`, {slice: '1-1-x', defaultTier: 'verify'}).story!
        .source
    expect(sourceOf('Status: review')).toBe(sourceOf('Status: done'))
    expect(sourceOf('**Status:** review')).toBe(sourceOf('**Status:** done'))
    expect(sourceOf('## Status\n\nReview')).toBe(sourceOf('## Status\n\n**Done** (2026-05-01)'))
    expect(sourceOf('Status: done').split('\n')).toHaveLength(7)
    expect(sourceOf('Status: done')).not.toBe(sourceOf('Status: done\n\nAs a cyclist'))
  })

  it('reads a one-shot spec as a contract without criteria, and an old tech-spec’s AC boxes as criteria, not tasks', () => {
    const options = {slice: 's', defaultTier: 'verify'} as const
    const oneShot = readBmadSpec(
      'spec-s.md',
      "---\ntitle: 'Ignore build output'\nstatus: done\nroute: 'one-shot'\n---\n\n## Intent\n\nKeep bin/ out of git.\n",
      options
    )
    expect([oneShot.story?.contract.label, oneShot.story?.contract.criteria, oneShot.status, oneShot.problems]).toEqual([
      'Spec: Ignore build output',
      [],
      'done',
      []
    ])
    const techSpec = readBmadSpec(
      'tech-spec-s.md',
      "---\ntitle: 'Export'\nstatus: 'review'\n---\n\n### Acceptance Criteria\n\n- [ ] AC 1: Given loans, when exported, then a CSV lists them\n\n### Notes\n\n- not a criterion\n",
      options
    )
    expect([techSpec.story?.contract.criteria.map((item) => item.text), techSpec.taskLines]).toEqual([
      ['AC 1: Given loans, when exported, then a CSV lists them'],
      []
    ])
    // The old tech-spec's `### Tasks` under `## Implementation Plan` holds its tasks, to the next heading of its level.
    const planned = readBmadSpec(
      'tech-spec-s.md',
      "---\ntitle: 'Export'\nstatus: 'review'\n---\n\n## Implementation Plan\n\n### Tasks\n\n- [ ] Task 1: Add the route\n- [x] Task 2: Add the button\n\n### Acceptance Criteria\n\n- [ ] AC 1: Given loans, when exported, then a CSV lists them\n",
      options
    )
    expect(planned.taskLines).toEqual([[8, 11]])
    expect([
      isBmadSpec('spec-s.md', '---\ntitle: x\nstatus: done\n---\n'),
      isBmadSpec('notes.md', '---\ntitle: x\nstatus: done\n---\n'),
      isBmadSpec('spec-s.md', '# Spec\n')
    ]).toEqual([true, false, false])
  })

  describe('the frozen block of a spec', () => {
    const options = {slice: 's', defaultTier: 'verify'} as const
    const front = "---\ntitle: 'Receipt'\nstatus: 'in-review'\n---\n\n"
    /** The spec's intent as `line: text`, and its problems as `file:line: message`. */
    const read = (body: string) => {
      const spec = readBmadSpec('spec-s.md', front + body, options)
      const intent = spec.story?.contract.intent
      return {
        block: intent && [intent.position.start.line, intent.position.end.line],
        intent: intent?.items.map((item) => `${item.position.start.line}: ${item.text}`),
        problems: spec.problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`)
      }
    }
    const matrix = '| Scenario | Input | Expected |\n|---|---|---|\n| Paid | a repair | "Total" |'

    it('reads each heading, paragraph, list item and table row inside as one text with its line, the tag with its attributes', () => {
      const split = `<frozen-after-approval reason="human-owned intent — do not modify unless human renegotiates">\n\n## Intent\n\n**Problem:** The receipt\nmisspells its total.\n\n**Approach:** Spell it.\n\n## Boundaries & Constraints\n\n**Never:** change the price\n\n- keep the layout\n\n${matrix}\n\n</frozen-after-approval>\n\n## Tasks & Acceptance\n`
      expect(read(split)).toEqual({
        block: [6, 25],
        intent: [
          '8: ## Intent',
          '10: Problem: The receipt misspells its total.',
          '13: Approach: Spell it.',
          '15: ## Boundaries & Constraints',
          '17: Never: change the price',
          '19: keep the layout',
          '21: Scenario | Input | Expected',
          '23: Paid | a repair | "Total"'
        ],
        problems: []
      })
    })

    it('reads a block without blank lines, which markdown parses as one HTML block, the same way, the tag without attributes', () => {
      const html = `<frozen-after-approval>\n## Intent\n**Problem:** The receipt misspells its total.\n## Boundaries & Constraints\n- **Never:** change the price\n- keep the layout\n## I/O & Edge-Case Matrix\n${matrix}\n</frozen-after-approval>\n## Tasks & Acceptance\n`
      expect(parseMarkdownText(front + html).children.map((node) => node.type)).toEqual(['yaml', 'html'])
      expect(read(html)).toEqual({
        block: [6, 16],
        intent: [
          '7: ## Intent',
          '8: Problem: The receipt misspells its total.',
          '9: ## Boundaries & Constraints',
          '10: Never: change the price',
          '11: keep the layout',
          '12: ## I/O & Edge-Case Matrix',
          '13: Scenario | Input | Expected',
          '15: Paid | a repair | "Total"'
        ],
        problems: []
      })
      expect(read(html.replace('<frozen-after-approval>', '<Frozen-After-Approval reason="anything">')).intent).toHaveLength(8)
    })

    it('takes no intent from a spec without the block, nor from an unattended build’s `<intent-contract>`, nor a tag in code or prose', () => {
      expect(read('## Intent\n\nKeep bin/ out of git.\n')).toEqual({block: undefined, intent: undefined, problems: []})
      expect(read('<intent-contract>\n\n## Intent\n\nKeep bin/ out of git.\n\n</intent-contract>\n')).toEqual({
        block: undefined,
        intent: undefined,
        problems: []
      })
      expect(read('```markdown\n<frozen-after-approval>\n```\n\nThe `<frozen-after-approval>` block is the person’s.\n')).toEqual({
        block: undefined,
        intent: undefined,
        problems: []
      })
    })

    it('reports an unclosed block, a second block and a closing tag alone at their line, and reads what is inside', () => {
      expect(read('<frozen-after-approval>\n\n## Intent\n\nSpell the total.\n')).toEqual({
        block: [6, 11],
        intent: ['8: ## Intent', '10: Spell the total.'],
        problems: ['spec-s.md:6: Unexpected `<frozen-after-approval>` without its closing tag, expected `</frozen-after-approval>` on a line of its own']
      })
      expect(
        read(
          '<frozen-after-approval>\nSpell the total.\n</frozen-after-approval>\n\n<frozen-after-approval>\nKeep the layout.\n</frozen-after-approval>\n</frozen-after-approval>\n'
        )
      ).toEqual({
        block: [6, 8],
        intent: ['7: Spell the total.', '11: Keep the layout.'],
        problems: [
          'spec-s.md:10: Unexpected second `<frozen-after-approval>` block, expected one block of the intent a person approved',
          'spec-s.md:13: Unexpected `</frozen-after-approval>` without its opening tag, expected `<frozen-after-approval>` before it'
        ]
      })
    })
  })

  it('loads a `_bmad-output` folder as BMAD’s', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-bmad-')))
    folders.push(root)
    await fs.cp(shop, path.join(root, '_bmad-output'), {recursive: true})
    const project = await loadProject(path.join(root, '_bmad-output'))
    expect([project.tool, project.slices.map((slice) => slice.id)]).toEqual([
      'bmad',
      ['1-1-book-a-repair', '1-2-track-a-repair', '2-1-pay-online', 'spec-fix-receipt-typo']
    ])
  })
})
