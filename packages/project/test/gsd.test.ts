/** The GSD reader: phase folders of `.planning/phases` as slices, the roadmap, plans and verifications as contracts. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {
  gsdPhaseNumber,
  readGsdPlan,
  readGsdRoadmap,
  readGsdUat,
  readGsdValidation,
  readGsdVerification,
  verificationProblems
} from '@verification-tiers/spec-tools'
import fc from 'fast-check'
import {afterAll, describe, expect, it} from 'vitest'
import {loadProject, recordLine} from '@verification-tiers/project'
import {gsd} from '../lib/tools/gsd.js'
import {toolFor} from '../lib/tools/index.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const room = path.join(fixtures, 'gsd-reading-room')
const verify = {defaultTier: 'verify', optionalTasks: 'show'} as const
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A copy of the fixture as `<tmp>/.planning`, with `files` written over it (`null` removes one). */
async function planning(files: Record<string, string | Buffer | null> = {}): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-gsd-')))
  folders.push(root)
  const dir = path.join(root, '.planning')
  await fs.cp(room, dir, {recursive: true})
  for (const [file, text] of Object.entries(files)) {
    const at = path.join(dir, file)
    if (text === null) await fs.rm(at, {recursive: true})
    else {
      await fs.mkdir(path.dirname(at), {recursive: true})
      await fs.writeFile(at, text)
    }
  }
  return dir
}

const passedWithChecks = `---
phase: 02-booking
status: passed
score: 2/2
human_verification:
  - test: "Book a seat on a phone"
    expected: "The seat shows as yours"
    why_human: "Needs a phone"
---
`

describe('gsd', () => {
  it('is the `.planning` folder, recognised by its roadmap or a phase folder', async () => {
    expect([gsd.name, gsd.folder]).toEqual(['gsd', '.planning'])
    expect(await gsd.recognises(room)).toBe(true)
    expect(await gsd.recognises(await planning({'ROADMAP.md': null}))).toBe(true)
    expect(await gsd.recognises(path.join(fixtures, 'kiro-garden'))).toBe(false)
    expect(await gsd.recognises(path.join(fixtures, 'no-such-folder'))).toBe(false)
  })

  it('reads each phase folder as a slice: the roadmap entry, each plan and the verification’s human checks its contracts', async () => {
    const reading = await gsd.read(room, verify)
    expect(
      reading.slices.map((slice) => [
        slice.id,
        slice.name,
        slice.tier,
        slice.contracts.map(({contract, file}) => [
          contract.label,
          path.relative(room, file),
          contract.effectiveTier,
          contract.criteria.map((item) => item.position.start.line),
          contract.steps.map((item) => item.text)
        ])
      ])
    ).toEqual([
      [
        '01-seat-map',
        'Phase 1: Seat Map',
        null,
        [
          ['Phase 1: Seat Map (success criteria)', 'ROADMAP.md', 'verify', [16, 17, 19], []],
          ['Plan 01-01 (must-haves)', 'phases/01-seat-map/01-01-PLAN.md', 'verify', [10, 11, 12], []],
          [
            'Plan 01-02 (must-haves)',
            'phases/01-seat-map/01-02-PLAN.md',
            'verify',
            [10, 11, 12],
            ['Open the map on two screens and take a seat on one — expected: The other screen shows the seat as taken within a minute']
          ],
          [
            '01-VERIFICATION (human verification)',
            'phases/01-seat-map/01-VERIFICATION.md',
            'verify',
            [],
            [
              'Look at the map with a colour-blindness simulator turned on — expected: Free and taken seats are still told apart by their pattern',
              'Take a seat on a phone while the map is open on a laptop — expected: The laptop shows the seat as taken within a minute'
            ]
          ]
        ]
      ],
      [
        '02-booking',
        'Phase 2: Booking',
        null,
        [
          ['Phase 2: Booking (success criteria)', 'ROADMAP.md', 'verify', [30, 31], []],
          ['Plan 02-01 (must-haves)', 'phases/02-booking/02-01-PLAN.md', 'verify', [8, 9], []]
        ]
      ],
      [
        '02.1-late-return-fix',
        'Phase 2.1: Late Return Fix (INSERTED)',
        null,
        [
          ['Phase 2.1: Late Return Fix (INSERTED) (success criteria)', 'ROADMAP.md', 'verify', [37], []],
          ['Plan 02.1-01 (must-haves)', 'phases/02.1-late-return-fix/02.1-01-PLAN.md', 'verify', [8], []]
        ]
      ]
    ])
    // A wrapped success criterion is one criterion; the plan's `<verification>` boxes and the roadmap's ticks are none.
    expect(reading.slices[0]!.contracts[0]!.contract.criteria[1]!.text).toBe(
      'A free seat and a taken seat look different at a glance, even for a reader who cannot tell red from green'
    )
    expect(reading.contracts).toEqual(reading.slices.flatMap((slice) => slice.contracts))
    expect(reading.problems).toEqual([])
  })

  it('counts a plan without its summary as an open task, and the gaps of a verification that found some', async () => {
    const dir = await planning({
      'phases/02-booking/02-VERIFICATION.md':
        '---\nphase: 02-booking\nstatus: gaps_found\ngaps:\n  - truth: "A second booking is refused"\n    status: failed\n---\n'
    })
    const reading = await gsd.read(dir, verify)
    expect(reading.slices.map((slice) => [slice.id, slice.openTasks.map((task) => `${path.relative(dir, task.file)}:${task.line}: ${task.text}`)])).toEqual([
      ['01-seat-map', ['phases/01-seat-map/01-02-PLAN.md:1: Plan 01-02 has no 01-02-SUMMARY.md: not executed']],
      ['02-booking', ['phases/02-booking/02-VERIFICATION.md:5: Gap: A second booking is refused']],
      ['02.1-late-return-fix', ['phases/02.1-late-return-fix/02.1-01-PLAN.md:1: Plan 02.1-01 has no 02.1-01-SUMMARY.md: not executed']]
    ])
  })

  it('takes the default tier for a phase without human checks, and verify for one with them', async () => {
    const reading = await gsd.read(room, {defaultTier: 'auto', optionalTasks: 'show'})
    expect(reading.slices.map((slice) => [slice.id, slice.tier, [...new Set(slice.contracts.map(({contract}) => contract.effectiveTier))]])).toEqual([
      ['01-seat-map', null, ['verify']],
      ['02-booking', 'auto', ['auto']],
      ['02.1-late-return-fix', 'auto', ['auto']]
    ])
    // A check the validation strategy leaves to a person makes its phase verify too, before any verification.
    const planned = await planning({
      'phases/02-booking/02-VALIDATION.md':
        '## Manual-Only Verifications\n\n| Behavior | Test Instructions |\n|---|---|\n| A booked seat shows on a phone | Book one on a phone |\n'
    })
    const read = await gsd.read(planned, {defaultTier: 'auto', optionalTasks: 'show'})
    expect(
      read.slices.map((slice) => [
        slice.id,
        slice.tier,
        slice.contracts.map(({contract}) => [contract.label, contract.effectiveTier, contract.steps.length])
      ])[1]
    ).toEqual([
      '02-booking',
      null,
      [
        ['Phase 2: Booking (success criteria)', 'verify', 0],
        ['Plan 02-01 (must-haves)', 'verify', 0],
        ['02-VALIDATION (manual-only checks)', 'verify', 1]
      ]
    ])
  })

  it('reports a passed verification that still lists human checks, in its frontmatter or its body', async () => {
    const body =
      '---\nphase: 02-booking\nstatus: passed\n---\n\n## Human Verification Required\n\n1. **Slot list**: open the day view on a phone\n2. **Refusal**: try to book a taken seat\n'
    const front = await gsd.read(await planning({'phases/02-booking/02-VERIFICATION.md': passedWithChecks}), verify)
    const listed = await gsd.read(await planning({'phases/02-booking/02-VERIFICATION.md': body}), verify)
    expect(front.problems.map((problem) => [path.basename(problem.file), problem.line, problem.message])).toEqual([
      [
        '02-VERIFICATION.md',
        3,
        'Unexpected `status: passed` with 1 human check listed in human_verification, expected `status: human_needed`: a phase passes only when no check is left to a person'
      ]
    ])
    expect(listed.problems.map((problem) => [path.basename(problem.file), problem.line, problem.message])).toEqual([
      [
        '02-VERIFICATION.md',
        3,
        'Unexpected `status: passed` with 2 human checks listed under Human Verification Required, expected `status: human_needed`: a phase passes only when no check is left to a person'
      ]
    ])
    // The checks are asked all the same: the slice is verify with them as its steps.
    expect(listed.slices[1]!.contracts.at(-1)!.contract.steps.map((step) => [step.text, step.position.start.line])).toEqual([
      ['Slot list: open the day view on a phone', 8],
      ['Refusal: try to book a taken seat', 9]
    ])
  })

  it('reports an override of a person’s check, a human_needed without checks, unreadable frontmatter and a phase with nothing to check', async () => {
    const dir = await planning({
      'phases/02-booking/02-VERIFICATION.md':
        '---\nstatus: human_needed\noverrides:\n  - must_have: "Manual UAT of the booking screen"\n    accepted_by: "orchestrator"\n  - must_have: "Uses the shared date picker"\n    accepted_by: "developer"\n---\n',
      'phases/02.1-late-return-fix/02.1-01-PLAN.md': '---\nmust_haves: [truths\n---\n',
      'phases/04-extras/04-CONTEXT.md': '# Context\n',
      'phases/notes/README.md': '# Notes\n'
    })
    const reading = await gsd.read(dir, verify)
    expect(reading.problems.map((problem) => [path.relative(dir, problem.file), problem.line, problem.message])).toEqual([
      [
        'phases/02-booking/02-VERIFICATION.md',
        2,
        'Unexpected `status: human_needed` without a human check, expected `human_verification` entries with test, expected and why_human'
      ],
      [
        'phases/02-booking/02-VERIFICATION.md',
        4,
        'Unexpected override of a person\'s check ("Manual UAT of the booking screen"), expected the check asked of a person: an override the agent writes answers for no one'
      ],
      [
        'phases/02.1-late-return-fix/02.1-01-PLAN.md',
        3,
        expect.stringMatching(/^Unexpected frontmatter that is not YAML \(.+\), expected the frontmatter GSD writes$/)
      ],
      [
        'phases/04-extras',
        null,
        'Unexpected phase without criteria, expected its `**Success Criteria**` in ROADMAP.md (`### Phase N: Name`) or a plan with `must_haves: truths:`; the phase is not gated'
      ],
      ['phases/notes', null, 'Unexpected folder in phases/, expected a phase folder named `NN-name` (`02-auth`, `02.1-hotfix`); tiers does not read it']
    ])
  })

  it('reads the body’s human checks when they are more than the frontmatter lists', () => {
    const text =
      '---\nstatus: human_needed\nhuman_verification:\n  - test: "Open the site"\n    expected: "It loads"\n---\n\n## Human Verification Required\n\n### 1. Site\n\n**Test:** Open the site\n\n### 2. Diagram\n\n```\n### 9. Not a check\n```\n\n## Gaps Summary\n\n1. Not a check either\n'
    const read = readGsdVerification('V.md', text)
    expect([read.checksFrom, read.humanChecks.map((check) => [check.text, check.position.start.line])]).toEqual([
      'body',
      [
        ['Site', 10],
        ['Diagram', 14]
      ]
    ])
    expect(readGsdVerification('V.md', text.replace('### 2. Diagram', '')).humanChecks.map((check) => check.text)).toEqual([
      'Open the site — expected: It loads'
    ])
  })

  it('reads code as markdown does: a `~~~` fence holding a ``` line hides no check after it', () => {
    const text =
      '---\nstatus: human_needed\n---\n\n## Human Verification Required\n\n~~~\n```\n### 9. Not a check\n~~~\n\n### 1. Printed map\n\n**Test:** Print it\n'
    expect(readGsdVerification('V.md', text).humanChecks.map((check) => [check.text, check.position.start.line])).toEqual([['Printed map', 12]])
    const uat = readGsdUat('U.md', '## Tests\n\n~~~\n```\n~~~\n\n### 1. Map\nexpected: it shows\nresult: pass\n')
    expect(uat.tests.map((test) => [test.name, test.result])).toEqual([['Map', 'pass']])
  })

  it('reads the human checks a verification writes as `### 1.` headings under a `### Human Verification Required` of the same level', () => {
    const text =
      '---\nstatus: passed\n---\n\n### Human Verification Required\n\n### 1. Colour-blind view\n\n**Test:** Turn the simulator on\n\n### 2. Printed map\n\n**Test:** Print the map\n\n### Gaps Summary\n\n### 3. Not a check\n'
    const read = readGsdVerification('V.md', text)
    expect([read.checksFrom, read.humanChecks.map((check) => [check.text, check.position.start.line])]).toEqual([
      'body',
      [
        ['Colour-blind view', 7],
        ['Printed map', 11]
      ]
    ])
  })

  it('reads a plan’s truths when YAML it cannot parse is elsewhere in the frontmatter, as GSD does; an error in the truths is a problem', () => {
    const plan = (links: string) =>
      `---\nphase: 04\nmust_haves:\n  truths:\n    - "A saved seat stays saved"\n    - "A taken seat cannot be booked"\n  key_links:\n${links}---\n\n# Plan\n`
    const lenient = readGsdPlan('P.md', plan('    - from: a.ts\n      pattern: "Engine\\.start"\n    - contains: "one", "two"\n'))
    expect([lenient.truths.map((truth) => [truth.text, truth.position.start.line]), lenient.problems]).toEqual([
      [
        ['A saved seat stays saved', 5],
        ['A taken seat cannot be booked', 6]
      ],
      []
    ])
    const broken = readGsdPlan('P.md', plan('    - from: a.ts\n').replace('- "A taken seat cannot be booked"', '- "A taken seat" cannot be booked"'))
    expect([broken.truths, broken.problems.map((problem) => [problem.line, problem.message.replace(/ \(.+\)/, ' (…)')])]).toEqual([
      [],
      [[6, 'Unexpected frontmatter that is not YAML (…), expected the frontmatter GSD writes']]
    ])
  })

  it('reads the rows of a validation’s Manual-Only Verifications table as checks for a person, never the template’s placeholder', () => {
    const text =
      '---\nstatus: draft\n---\n\n## Per-Task Verification Map\n\n| Task ID | Status |\n|---|---|\n| 01-01 | pending |\n\n## Manual-Only Verifications\n\n| Behavior | Requirement | Why Manual | Test Instructions |\n|---|---|---|---|\n| Seats read well in dark mode | UI-02 | Visual | Switch the theme, look at the map |\n| {behavior} | REQ-{XX} | {reason} | {steps} |\n| Printing keeps the legend | UI-03 | Printer | |\n| (none) | — | — | All phase behaviors have automated verification |\n| — | UI-04 | Hardware | Scan the code with a phone |\n\n## Validation Sign-Off\n\n| Behavior | Test Instructions |\n|---|---|\n| Not a check | Not read |\n'
    expect(readGsdValidation(text).map((check) => [check.text, check.position.start.line])).toEqual([
      ['Seats read well in dark mode — Switch the theme, look at the map', 15],
      ['Printing keeps the legend', 17],
      ['Scan the code with a phone', 19]
    ])
  })

  it('keeps a phase’s criteria when the roadmap details it again with a status line only', () => {
    const text =
      '## Phase Details\n\n### Phase 3: Tents\n\n**Success Criteria** (what must be TRUE):\n  1. A tent can be booked\n  2. A booked tent shows as taken\n\n## Progress\n\n### Phase 3: Tents\n\n**Status:** Complete\n'
    expect(
      readGsdRoadmap('ROADMAP.md', text)
        .phases.get('3')
        ?.criteria.map((item) => [item.text, item.position.start.line])
    ).toEqual([
      ['A tent can be booked', 6],
      ['A booked tent shows as taken', 7]
    ])
  })

  it('reads a verification’s frontmatter when YAML it cannot parse is in a block it does not read; reports any status but human_needed over a listed check', () => {
    const text =
      '---\nphase: 05\nstatus: verified\nre_verification:\n  previous_status: gaps_found\n   gaps_closed: ["a"]\nhuman_verification:\n  - test: "Print the map"\n    expected: "The legend shows"\n---\n'
    const read = readGsdVerification('V.md', text)
    expect([read.status, read.humanChecks.map((check) => check.text), read.problems]).toEqual(['verified', ['Print the map — expected: The legend shows'], []])
    expect(verificationProblems('V.md', read).map((problem) => [problem.line, problem.message])).toEqual([
      [
        3,
        'Unexpected `status: verified` with 1 human check listed in human_verification, expected `status: human_needed`: a phase passes only when no check is left to a person'
      ]
    ])
    const broken = readGsdVerification('V.md', text.replace('  - test: "Print the map"', '  - test: "Print" the map"'))
    expect(broken.problems.map((problem) => problem.line)).toEqual([8])
    // An error where a key the gate reads starts (an unclosed `[` above it) holds: the checks are not dropped in silence.
    const swallowed = readGsdVerification('V.md', '---\nstatus: passed\noverrides_applied: [\nhuman_verification:\n  - test: "Print the map"\n---\n')
    expect([swallowed.humanChecks, swallowed.problems.length]).toEqual([[], 1])
  })

  it('places a plan at its truths (else its first planned check), a verification and a validation at their human checks, where a removed one is named; an approval still covers each from its first line', async () => {
    const dir = await planning({
      'phases/02-booking/02-02-PLAN.md':
        '---\nphase: 02\n---\n\n# Plan\n\n<task type="checkpoint:human-verify">\n<name>Book a seat on a phone</name>\n</task>\n',
      'phases/02-booking/02-VALIDATION.md':
        '# Validation\n\n## Manual-Only Verifications\n\n| Behavior | Requirement | Why Manual | Test Instructions |\n|---|---|---|---|\n| The seat reads well | UI-02 | Visual | Look at it |\n'
    })
    const read = await gsd.read(dir, verify)
    const placed = read.slices
      .flatMap((slice) => slice.contracts)
      .filter(({file}) => /-(PLAN|VERIFICATION|VALIDATION)\.md$/.test(file))
      .map(({contract, file, source}) => [path.basename(file), contract.headingPosition?.start.line, source.split('\n')[0]])
    expect(placed).toEqual([
      ['01-01-PLAN.md', 9, '---'],
      ['01-02-PLAN.md', 9, '---'],
      ['01-VERIFICATION.md', 6, '---'],
      ['02-01-PLAN.md', 7, '---'],
      ['02-02-PLAN.md', 7, '---'],
      ['02-VALIDATION.md', 7, '# Validation'],
      ['02.1-01-PLAN.md', 7, '---']
    ])
  })

  it('holds on a key the gate reads given twice in a frontmatter, at the second; a key it does not read may be', () => {
    const verification = readGsdVerification(
      'V.md',
      '---\nphase: 05\nphase: 5\nstatus: human_needed\nhuman_verification:\n  - test: "Print the map"\nstatus: passed\n---\n'
    )
    expect([verification.status, verification.humanChecks, verification.problems.map((problem) => [problem.line, problem.message])]).toEqual([
      null,
      [],
      [[7, 'Unexpected `status` given twice in the frontmatter, expected it once: which of the two is meant cannot be told']]
    ])
    const plan = readGsdPlan('P.md', '---\nmust_haves:\n  truths:\n    - "A seat is drawn"\n  truths:\n    - "Nothing"\n---\n')
    expect([plan.truths, plan.problems.map((problem) => [problem.line, problem.message])]).toEqual([
      [],
      [[5, 'Unexpected `truths` given twice in the frontmatter, expected it once: which of the two is meant cannot be told']]
    ])
  })

  it('holds on an alias, a merge key or a value that is no list where the gate reads truths or checks, at its line', () => {
    const problems = (text: string) => readGsdVerification('V.md', text).problems.map((problem) => [problem.line, problem.message])
    expect(problems('---\nchecks: &hv\n  - test: "Print the map"\nstatus: human_needed\nhuman_verification: *hv\n---\n')).toEqual([
      [5, 'Unexpected alias in `human_verification` of the frontmatter, expected its value written out: tiers reads no YAML alias or merge']
    ])
    expect(problems('---\nstatus: passed\nhuman_verification: |\n  Print the map\n---\n')).toEqual([
      [3, 'Unexpected `human_verification` that is no list, expected its entries as a list (`- test: …`): what it holds is not read']
    ])
    expect(problems('---\nstatus: passed\nhuman_verification: []\ngaps:\n---\n')).toEqual([])
    const plan = readGsdPlan('P.md', '---\nbase: &m\n  truths:\n    - "A seat is drawn"\nmust_haves:\n  <<: *m\n---\n')
    expect([plan.truths, plan.problems.map((problem) => [problem.line, problem.message])]).toEqual([
      [],
      [[6, 'Unexpected merge key in `must_haves` of the frontmatter, expected its value written out: tiers reads no YAML alias or merge']]
    ])
    expect(readGsdPlan('P.md', '---\nmust_haves:\n  truths: A seat is drawn\n---\n').problems.map((problem) => problem.line)).toEqual([3])
  })

  it('property: a list the gate reads, written as an alias, under a merge key or as no list, holds at its line', () => {
    const lists = ['human_verification', 'gaps', 'overrides'] as const
    const forms = {
      alias: (key: string) => [`base: &items`, `  - test: "Print the map"`, `${key}: *items`],
      merge: (key: string) => [`base: &items`, `  ${key}:`, `    - test: "Print the map"`, `<<: *items`],
      text: (key: string) => [`${key}: |`, `  Print the map`],
      mapping: (key: string) => [`${key}:`, `  test: "Print the map"`]
    }
    fc.assert(
      fc.property(fc.constantFrom(...lists), fc.constantFrom(...(Object.keys(forms) as Array<keyof typeof forms>)), fc.boolean(), (key, form, statusFirst) => {
        const lines = forms[form](key)
        const written = statusFirst ? ['status: human_needed', ...lines] : [...lines, 'status: human_needed']
        const verification = readGsdVerification('V.md', `---\n${written.join('\n')}\n---\n`)
        // At the alias, the merge key, or the value that is no list (a mapping's starts on the line below its key).
        const at = written.findIndex((line) => line.startsWith(form === 'merge' ? '<<' : `${key}:`)) + (form === 'mapping' ? 3 : 2)
        expect(verification.problems.map((problem) => problem.line)).toEqual([at])
        expect(verification.humanChecks.length + verification.gaps.length + verification.overrides.length).toBe(0)
      })
    )
  })

  it('property: any key the gate reads given twice, in any order among others, holds at the second and reads no check', () => {
    const lines: Record<string, string> = {
      phase: 'phase: 05',
      score: 'score: 3/3',
      status: 'status: human_needed',
      human_verification: 'human_verification:\n  - test: "Print the map"',
      gaps: 'gaps: []',
      overrides: 'overrides: []'
    }
    const read = new Set(['status', 'human_verification', 'gaps', 'overrides'])
    const keys = Object.keys(lines)
    fc.assert(
      fc.property(fc.shuffledSubarray(keys), fc.constantFrom(...keys), fc.nat(), fc.nat(), (order, twice, first, then) => {
        const written = order.filter((key) => key !== twice)
        written.splice(first % (written.length + 1), 0, twice)
        written.splice(then % (written.length + 1), 0, twice)
        const text = `---\n${written.map((key) => lines[key]).join('\n')}\n---\n`
        const verification = readGsdVerification('V.md', text)
        const second = text.split('\n').findLastIndex((line) => line.startsWith(`${twice}:`)) + 1
        if (read.has(twice)) expect([verification.humanChecks, verification.problems.map((problem) => problem.line)]).toEqual([[], [second]])
        else expect(verification.problems).toEqual([])
      })
    )
  })

  it('takes a phase’s roadmap entry from the one milestone roadmap that details it when ROADMAP.md does not', async () => {
    const milestone = '## Phase Details\n\n### Phase 5: Map\n\n**Success Criteria**:\n  1. The map loads\n  2. The map zooms\n'
    const files = {
      'phases/05-map/05-01-PLAN.md': '---\nmust_haves:\n  truths:\n    - "A seat is drawn"\n---\n',
      'phases/05-map/05-01-SUMMARY.md': '# Summary\n',
      'milestones/v1.0-ROADMAP.md': milestone
    }
    const mapOf = async (dir: string) => (await gsd.read(dir, verify)).slices.find((slice) => slice.id === '05-map')
    const one = await mapOf(await planning(files))
    expect([one?.name, one?.contracts.map(({contract, file}) => [contract.label, path.basename(file), contract.criteria.length])]).toEqual([
      'Phase 5: Map',
      [
        ['Phase 5: Map (success criteria)', 'v1.0-ROADMAP.md', 2],
        ['Plan 05-01 (must-haves)', '05-01-PLAN.md', 1]
      ]
    ])
    // Two milestones detailing the same number (numbering restarted): neither entry is the phase's.
    const two = await mapOf(await planning({...files, 'milestones/v2.0-ROADMAP.md': milestone}))
    expect([two?.name, two?.contracts.map(({contract}) => contract.label)]).toEqual(['05-map', ['Plan 05-01 (must-haves)']])
  })

  it('holds on a milestone roadmap it cannot read, naming it: it may hold a phase’s criteria', async () => {
    const dir = await planning({
      'phases/05-map/05-01-PLAN.md': '---\nmust_haves:\n  truths:\n    - "A seat is drawn"\n---\n',
      'phases/05-map/05-01-SUMMARY.md': '# Summary\n',
      'milestones/v1.0-ROADMAP.md': Buffer.from('## Phase Details\n\n### Phase 5: Map \xe9t\xe9\n', 'latin1'),
      'milestones/v1.0-REQUIREMENTS.md': Buffer.from('Not read \xe9\n', 'latin1')
    })
    // Nothing else of milestones/ is read: a link to a folder, or a folder whose name is not UTF-8, is no problem.
    await fs.mkdir(path.join(dir, 'milestones', 'v1.0-phases'))
    await fs.symlink('v1.0-phases', path.join(dir, 'milestones', 'latest'))
    await fs.mkdir(Buffer.from(path.join(dir, 'milestones', 'caf\xe9'), 'latin1'))
    const read = await gsd.read(dir, verify)
    expect(read.problems.map((problem) => [path.relative(dir, problem.file), problem.line, problem.message.replace(/, expected .*/, '')])).toEqual([
      ['milestones/v1.0-ROADMAP.md', 3, 'Unexpected byte 0xE9, which is not UTF-8']
    ])
  })

  it('takes a milestone roadmap’s criteria for a phase ROADMAP.md lists with a status line only', async () => {
    const dir = await planning({
      'ROADMAP.md': '## Phase Details\n\n### Phase 5: Map\n\n**Status:** Complete\n',
      'phases/05-map/05-01-PLAN.md': '---\nmust_haves:\n  truths:\n    - "A seat is drawn"\n---\n',
      'phases/05-map/05-01-SUMMARY.md': '# Summary\n',
      'milestones/v1.0-ROADMAP.md': '## Phase Details\n\n### Phase 5: Map\n\n**Success Criteria**:\n  1. The map loads\n'
    })
    const map = (await gsd.read(dir, verify)).slices.find((slice) => slice.id === '05-map')
    expect(map?.contracts.map(({contract, file}) => [contract.label, path.basename(file)])[0]).toEqual(['Phase 5: Map (success criteria)', 'v1.0-ROADMAP.md'])
  })

  it('reads a truth YAML took for a mapping, and a human check without `test`, as their text: never dropped', () => {
    const plan = readGsdPlan('P.md', '---\nmust_haves:\n  truths:\n    - Users can: sign in with a code\n    - "A code expires after ten minutes"\n---\n')
    expect(plan.truths.map((truth) => [truth.text, truth.position.start.line])).toEqual([
      ['Users can: sign in with a code', 4],
      ['A code expires after ten minutes', 5]
    ])
    const verification = readGsdVerification(
      'V.md',
      '---\nstatus: human_needed\nhuman_verification:\n  - check: "Sign in on a phone"\n    why_human: "Needs a phone"\n---\n'
    )
    expect(verification.humanChecks.map((check) => check.text)).toEqual(['check: Sign in on a phone; why_human: Needs a phone'])
  })

  it('reads the phases of each workstream with its own roadmap, their ids prefixed with its name', async () => {
    const api = {
      'workstreams/api/ROADMAP.md': '### Phase 1: Keys\n**Success Criteria**:\n1. A key signs each request\n',
      'workstreams/api/phases/01-keys/01-01-PLAN.md': '---\nmust_haves:\n  truths:\n    - "A revoked key is refused"\n---\n',
      'workstreams/api/phases/01-keys/01-01-SUMMARY.md': '# Summary\n'
    }
    const reading = await gsd.read(await planning(api), verify)
    expect(reading.slices.map((slice) => [slice.id, slice.name, slice.contracts.flatMap(({contract}) => contract.criteria.map((item) => item.text))])).toEqual([
      ['01-seat-map', 'Phase 1: Seat Map', expect.any(Array)],
      ['02-booking', 'Phase 2: Booking', expect.any(Array)],
      ['02.1-late-return-fix', 'Phase 2.1: Late Return Fix (INSERTED)', expect.any(Array)],
      ['api.01-keys', 'Phase 1: Keys', ['A key signs each request', 'A revoked key is refused']]
    ])
    // A `.planning` whose phases are all in workstreams is GSD's.
    expect(await gsd.recognises(await planning({...api, 'ROADMAP.md': null, phases: null}))).toBe(true)
  })

  it('reads a UAT file’s status and each `### N. Name` test’s result, as GSD writes them or with a blank line between', () => {
    const text = [
      '---',
      'status: diagnosed',
      'phase: 02-booking',
      '---',
      '',
      '## Current Test',
      '',
      'number: 3',
      'result: pass',
      '',
      '## Tests',
      '',
      '### 1. Book a seat',
      '',
      'expected: The seat shows as yours',
      '',
      'result: [pending]',
      '',
      '### 2. Cancel a booking',
      'expected: The seat is free again',
      'result: pending',
      '### 3. Two readers, one seat',
      'expected: The second is refused',
      'result: issue',
      'reported: "both got the seat"',
      'severity: major',
      '### 4. Phone layout',
      'result: skipped',
      'reason: no phone at hand',
      '### 5. Printed ticket',
      'result: blocked',
      'blocked_by: physical-device',
      '### 6. Reminder mail',
      'result: "Pass"',
      '### 7. Late return',
      'expected: The seat frees itself',
      '',
      '```',
      '### 8. Not a test',
      'result: pass',
      '```',
      '',
      '## Summary',
      '',
      'result: pass',
      ''
    ].join('\n')
    const uat = readGsdUat('02-UAT.md', text)
    expect([uat.status, uat.statusLine]).toEqual(['diagnosed', 2])
    expect(uat.tests.map((test) => [test.name, test.result, test.line])).toEqual([
      ['Book a seat', 'pending', 13],
      ['Cancel a booking', 'pending', 19],
      ['Two readers, one seat', 'issue', 22],
      ['Phone layout', 'skipped', 27],
      ['Printed ticket', 'blocked', 30],
      ['Reminder mail', 'pass', 33],
      ['Late return', null, 35]
    ])
    // A hand-written UAT (results in a table) has no tests to list; frontmatter that is not YAML has no status: neither is a problem.
    const table =
      '---\nphase: 21\ntype: uat\nstatus: passed\ntester: A. Reader\n---\n\n# Phase 21 — Manual UAT\n\n## Results\n\n| # | Check | Result |\n| --- | --- | --- |\n| 1 | Map loads | PASS |\n| 2 | Phone | SKIP |\n'
    expect(readGsdUat('21-UAT.md', table)).toEqual({status: 'passed', statusLine: 4, tests: []})
    expect(readGsdUat('21-UAT.md', '---\nstatus: [partial\n---\n\n### 1. Map\nresult: pass\n')).toEqual({
      status: null,
      statusLine: null,
      tests: [{name: 'Map', result: 'pass', line: 5}]
    })
  })

  it('shows each UAT file of a phase as the workflow’s record, never an answer, a tier or a problem', async () => {
    const allPass =
      '---\nstatus: complete\n---\n\n## Tests\n\n### 1. Book a seat\nexpected: The seat shows as yours\nresult: pass\n\n### 2. Two readers\n\nexpected: The second is refused\n\nresult: pass\n'
    const dir = await planning({
      'phases/02-booking/02-UAT.md': allPass,
      'phases/02-booking/02-HUMAN-UAT.md': '---\nphase: 02\ntype: uat\nstatus: passed\n---\n\n| Check | Result |\n| --- | --- |\n| Phone | PASS |\n',
      'phases/02.1-late-return-fix/02.1-UAT.md':
        '---\nstatus: testing\n---\n\n### 1. Free at the end\nresult: issue\n### 2. Free early\nresult: [pending]\n### 3. Free twice\nresult: pass\n### 4. Notes\nexpected: kept\n'
    })
    await fs.writeFile(path.join(dir, 'phases/01-seat-map/01-UAT.md'), Buffer.from([0xff, 0xfe, 0x00]))
    for (const defaultTier of ['verify', 'auto'] as const) {
      const reading = await gsd.read(dir, {defaultTier, optionalTasks: 'show'})
      expect(
        reading.slices.map((slice) => [
          slice.id,
          slice.tier,
          (slice.records ?? []).map((record) => `${path.relative(dir, record.file)}:${record.line}: ${recordLine(record)}`)
        ])
      ).toEqual([
        [
          '01-seat-map',
          null,
          [
            'phases/01-seat-map/01-HUMAN-UAT.md:2: GSD’s UAT record (01-HUMAN-UAT.md, the agent’s transcript, not your answer): 2 pending (status partial)',
            // A UAT file that cannot be read says so in its record: it holds nothing.
            'phases/01-seat-map/01-UAT.md:null: GSD’s UAT record (01-UAT.md, the agent’s transcript, not your answer): not read: Unexpected byte 0xFF, which is not UTF-8, expected text in UTF-8 (save the file as UTF-8)'
          ]
        ],
        // All pass and `status: complete`: the tier stays the phase’s own, the checks are asked all the same.
        [
          '02-booking',
          defaultTier === 'auto' ? 'auto' : null,
          [
            'phases/02-booking/02-HUMAN-UAT.md:4: GSD’s UAT record (02-HUMAN-UAT.md, the agent’s transcript, not your answer): tests not in a shape tiers can list (status passed)',
            'phases/02-booking/02-UAT.md:2: GSD’s UAT record (02-UAT.md, the agent’s transcript, not your answer): 2 pass (status complete)'
          ]
        ],
        [
          '02.1-late-return-fix',
          defaultTier === 'auto' ? 'auto' : null,
          [
            'phases/02.1-late-return-fix/02.1-UAT.md:2: GSD’s UAT record (02.1-UAT.md, the agent’s transcript, not your answer): 1 pass, 1 issue, 1 pending, 1 without a result (status testing)'
          ]
        ]
      ])
      // The roadmap ticks phase 1 complete while its HUMAN-UAT is all pending: neither closes its checks, neither is a problem.
      expect(reading.slices[0]!.contracts.at(-1)!.contract.steps).toHaveLength(2)
      expect(reading.slices[0]!.openTasks.map((task) => task.text)).toEqual(['Plan 01-02 has no 01-02-SUMMARY.md: not executed'])
      expect(reading.problems).toEqual([])
    }
    // A phase without a UAT file has no records.
    expect((await gsd.read(room, verify)).slices.map((slice) => slice.records?.length ?? 0)).toEqual([1, 1, 0])
  })

  it('reads roadmap phases without a folder as no slices and no problems: not started, or shipped and their folder removed', async () => {
    // Phases 1, 2 and 2.1 are ticked complete, phase 3 is not: GSD makes a phase's folder when it plans it, and a project may delete a shipped one.
    const reading = await gsd.read(await planning({phases: null}), verify)
    expect([reading.slices, reading.contracts, reading.problems]).toEqual([[], [], []])
  })

  it('matches phase folders to roadmap headings as GSD numbers them', () => {
    expect(['02-a', '02.1-hotfix', '12A-b', 'CK-03-c', '999.1-x', 'notes'].map(gsdPhaseNumber)).toEqual(['2', '2.1', '12A', '3', '999.1', null])
    const {phases: roadmap, problems} = readGsdRoadmap(
      'ROADMAP.md',
      '### Phase 2: A\n**Success Criteria**:\n1. one\n\n#### Phase 2.1: Hotfix\n**Success Criteria** (what must be TRUE):\n  1. two\n  2. three\n**Plans:** 1\n### Phase 12A: B\n### Phase CK-03: C\n**Success Criteria**:\n1. four\n\nprose after\n2. not a criterion\n> ### Phase 4: Quoted\n\n<details>\n\n### Phase 5: Shipped\n</details>\n'
    )
    expect([...roadmap.values()].map((phase) => [phase.number, phase.title, phase.criteria.map((item) => item.text)])).toEqual([
      ['2', 'Phase 2: A', ['one']],
      ['2.1', 'Phase 2.1: Hotfix', ['two', 'three']],
      ['12A', 'Phase 12A: B', []],
      ['3', 'Phase CK-03: C', ['four']],
      ['5', 'Phase 5: Shipped', []]
    ])
    // A heading in a quote is none to markdown nor to GSD: named, never dropped.
    expect(problems).toEqual([
      {
        file: 'ROADMAP.md',
        line: 17,
        message:
          'Unexpected phase heading `### Phase 4: Quoted` inside a block quote, expected a heading the reader sees: move the heading out of the quote (no `>`)'
      }
    ])
  })

  it('loads a `.planning` folder as GSD’s though it holds a config.json, and never reads quick/ tasks as phases', async () => {
    const project = await loadProject(await planning())
    expect([project.tool, project.slicesFrom, project.slices.map((slice) => slice.id)]).toEqual([
      'gsd',
      'gsd',
      ['01-seat-map', '02-booking', '02.1-late-return-fix']
    ])
    // A Greenlight file besides config.json makes the folder Greenlight's, whatever its name.
    expect(await toolFor(await planning({'CONTRACTS.md': '### C-01: Seat map\n'}))).toBe(null)
  })
})
