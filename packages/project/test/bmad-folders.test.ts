/** BMAD's story folders: v4's (`devStoryLocation` of `.bmad-core/core-config.yaml`) and the one v6's `_bmad/bmm/config.yaml` names. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {readBmadStory} from '@verification-tiers/spec-tools'
import {afterAll, describe, expect, it} from 'vitest'
import {findProjectFolders, loadProject} from '@verification-tiers/project'
import {bmad, bmadV4} from '../lib/tools/bmad.js'

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures')
const bakery = path.join(fixtures, 'bmad-v4-bakery')
const stories = path.join(bakery, 'docs', 'stories')
const verify = {defaultTier: 'verify', optionalTasks: 'show'} as const
const folders: string[] = []

afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

/** A repository holding `files` (path → text). */
async function repository(files: Record<string, string>): Promise<string> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-bmad-folders-')))
  folders.push(root)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), {recursive: true})
    await fs.writeFile(path.join(root, file), text)
  }
  return root
}

const story = (number: string) => `# Story ${number}: Bake\n\n## Status\n\nDraft\n\n## Acceptance Criteria\n\n1. The bread is baked by six.\n`

/** Each slice read as `id: file (criteria, open tasks)`, files relative to `root`. */
function sliced(root: string, reading: Awaited<ReturnType<typeof bmad.read>>): string[] {
  return reading.slices.map(
    (slice) => `${slice.id}: ${path.relative(root, slice.contracts[0]!.file)} (${slice.contracts[0]!.contract.criteria.length}, ${slice.openTasks.length})`
  )
}

describe('bmad v4', () => {
  it('is the `.bmad-core` folder, recognised by its `core-config.yaml`', async () => {
    expect([bmadV4.name, bmadV4.folder]).toEqual(['bmad-v4', '.bmad-core'])
    const root = await repository({'.bmad-core/agents/sm.md': '# sm\n', 'fresh/.bmad-core/core-config.yaml': 'devStoryLocation: docs/stories\n'})
    const candidates = [
      path.join(bakery, '.bmad-core'),
      path.join(root, '.bmad-core'),
      path.join(root, 'fresh', '.bmad-core'),
      path.join(root, 'none', '.bmad-core')
    ]
    expect(await Promise.all(candidates.map((folder) => bmadV4.recognises(folder)))).toEqual([true, false, true, false])
  })

  it('reads each story of the story folder and its subfolders as a slice, its numbered items or `### ACn` headings its criteria, never its other files', async () => {
    const reading = await bmadV4.read(path.join(bakery, '.bmad-core'), verify)
    expect(
      reading.slices.map((slice) => [
        slice.id,
        slice.name,
        path.relative(stories, slice.contracts[0]!.file),
        slice.contracts[0]!.contract.criteria.map((item) => [item.position.start.line, item.text])
      ])
    ).toEqual([
      [
        '1.1.order-a-cake.story',
        'Story 1.1: Order a cake',
        '1.1.order-a-cake.story.md',
        [
          [15, 'The order form offers every cake on the menu with its price.'],
          [16, 'An order for a day less than two days away is refused with a message naming the first day that can be chosen.'],
          [18, 'A confirmed order shows its number and pickup day.']
        ]
      ],
      [
        '1.2.story',
        'Story 1.2: Pay a deposit',
        '1.2.story.md',
        [
          [9, 'AC1: Deposit The customer pays a fifth of the price when ordering: by card; by bank transfer; in the shop'],
          [17, 'AC2: Receipt A receipt names the deposit and what is left to pay.']
        ]
      ],
      [
        '2.6.1.pickup-slot.story',
        'Story 2.6.1: Pickup slot',
        '2.6.1.pickup-slot.story.md',
        [
          [9, 'The customer picks a half-hour pickup slot on the pickup day.'],
          [10, 'A slot holding five orders is no longer offered.']
        ]
      ],
      ['3.1.z', 'Story 3.1: Cancel an order', 'epic/3/3.1.z.md', [[9, 'An order cancelled two days or more before pickup refunds its deposit.']]]
    ])
    expect(reading.problems).toEqual([])
  })

  it('counts the unticked boxes of Tasks / Subtasks as open tasks, never the status, Dev Notes or QA Results', async () => {
    const reading = await bmadV4.read(path.join(bakery, '.bmad-core'), verify)
    expect(reading.slices.map((slice) => [slice.id, slice.openTasks.map((task) => `${path.relative(stories, task.file)}:${task.line}: ${task.text}`)])).toEqual(
      [
        ['1.1.order-a-cake.story', ['1.1.order-a-cake.story.md:24: Show the price beside each cake']],
        ['1.2.story', []],
        [
          '2.6.1.pickup-slot.story',
          [
            '2.6.1.pickup-slot.story.md:14: Task 1: Slot picker (AC: 1)',
            '2.6.1.pickup-slot.story.md:15: Offer half-hour slots',
            '2.6.1.pickup-slot.story.md:16: Task 2: Full slots (AC: 2)'
          ]
        ],
        ['3.1.z', []]
      ]
    )
  })

  it('reads the folder devStoryLocation names, and `docs/stories` when it names none', async () => {
    const root = await repository({
      '.bmad-core/core-config.yaml': 'devStoryLocation: stories\n',
      'stories/1.1.story.md': story('1.1'),
      'docs/stories/9.9.story.md': story('9.9')
    })
    expect(sliced(root, await bmadV4.read(path.join(root, '.bmad-core'), verify))).toEqual(['1.1.story: stories/1.1.story.md (1, 0)'])
    await fs.writeFile(path.join(root, '.bmad-core', 'core-config.yaml'), 'slashPrefix: BMad\n')
    expect(sliced(root, await bmadV4.read(path.join(root, '.bmad-core'), verify))).toEqual(['9.9.story: docs/stories/9.9.story.md (1, 0)'])
  })

  it('names a configuration it cannot follow in one problem at its line, and reads no story', async () => {
    const root = await repository({'docs/stories/1.1.story.md': story('1.1'), 'outside/.keep': ''})
    const config = path.join(root, '.bmad-core', 'core-config.yaml')
    const problemOf = async (text: string) => {
      await fs.mkdir(path.dirname(config), {recursive: true})
      await fs.writeFile(config, text)
      const reading = await bmadV4.read(path.join(root, '.bmad-core'), verify)
      expect(reading.slices).toEqual([])
      return reading.problems.map((problem) => `${path.relative(root, problem.file)}:${problem.line}: ${problem.message}`)
    }
    expect(await problemOf('slashPrefix: BMad\ndevStoryLocation: [docs\n')).toEqual([
      ".bmad-core/core-config.yaml:3: Unexpected text that is not YAML (Flow sequence in block collection must be sufficiently indented and end with a ]), expected BMAD's settings; no story is read"
    ])
    expect(await problemOf('- docs/stories\n')).toEqual([
      ".bmad-core/core-config.yaml:1: Unexpected YAML that is no mapping, expected BMAD's settings as `key: value` lines; no story is read"
    ])
    expect(await problemOf('qa:\n  qaLocation: docs/qa\ndevStoryLocation:\n  - docs/stories\n')).toEqual([
      '.bmad-core/core-config.yaml:4: Unexpected `devStoryLocation` that is no folder name, expected the folder of the story files, relative to the repository; no story is read'
    ])
    expect(await problemOf('devStoryLocation: ../outside\n')).toEqual([
      `.bmad-core/core-config.yaml:1: Unexpected \`devStoryLocation\` ../outside, which is no folder inside the repository ${root}, expected a folder in it; no story is read`
    ])
    expect(await problemOf('devStoryLocation: .\n')).toEqual([
      `.bmad-core/core-config.yaml:1: Unexpected \`devStoryLocation\` ., which is no folder inside the repository ${root}, expected a folder in it; no story is read`
    ])
    expect(await problemOf('devStoryLocation: docs/stories/1.1.story.md\n')).toEqual(['docs/stories/1.1.story.md:null: Unexpected file, expected a folder'])
    // A story folder not made yet: BMAD makes it with the first story, so a fresh install holds no story and nothing is wrong.
    expect(await problemOf('devStoryLocation: docs/storys\n')).toEqual([])
    await fs.rm(path.join(root, 'docs'), {recursive: true})
    expect(await problemOf('slashPrefix: BMad\n')).toEqual([])
    // The gate's own files (the stop hook's count, the run status) are no slice's state: still nothing is wrong.
    await fs.mkdir(path.join(root, '.bmad-core', 'tiers'))
    await fs.writeFile(path.join(root, '.bmad-core', 'tiers', 'stop-hook.json'), '{}\n')
    await fs.writeFile(path.join(root, '.bmad-core', 'tiers', 'verification-status.json'), '{}\n')
    expect(await problemOf('slashPrefix: BMad\n')).toEqual([])
    // Once the gate keeps a slice's state, stories it read must not vanish with their folder.
    await fs.writeFile(path.join(root, '.bmad-core', 'tiers', '1.1.story.json'), '{}\n')
    expect(await problemOf('devStoryLocation: docs/storys\n')).toEqual([
      '.bmad-core/core-config.yaml:1: Unexpected `devStoryLocation` docs/storys, which is no folder, expected the folder of the story files; no story is read'
    ])
    expect(await problemOf('slashPrefix: BMad\n')).toEqual([
      '.bmad-core/core-config.yaml:null: Unexpected no `devStoryLocation`, so the default docs/stories, which is no folder, expected the folder of the story files; no story is read'
    ])
  })

  it('names a story whose name is no slice id, or the name of a story read before in another folder', async () => {
    const root = await repository({
      '.bmad-core/core-config.yaml': 'devStoryLocation: docs/stories\n',
      'docs/stories/1.1.story.md': story('1.1'),
      'docs/stories/old/1.1.story.md': story('1.1'),
      'docs/stories/1.2 draft.md': story('1.2')
    })
    const reading = await bmadV4.read(path.join(root, '.bmad-core'), verify)
    expect(sliced(root, reading)).toEqual(['1.1.story: docs/stories/1.1.story.md (1, 0)'])
    expect(reading.problems.map((problem) => `${path.relative(root, problem.file)}: ${problem.message}`)).toEqual([
      'docs/stories/1.2 draft.md: Unexpected story file name, its name is no slice id (a slice id such as `S-01`: 1 to 100 letters, digits, `_`, `-` or `.`, not starting with `-` or `.`, and not `verification-status` or `stop-hook`); tiers does not read it',
      `docs/stories/old/1.1.story.md: Unexpected story file named as ${path.join(root, 'docs/stories/1.1.story.md')}, expected one story file of each name: its name is its slice's; tiers does not read it`
    ])
  })

  it('reads the stories within the read limits of its settings', async () => {
    const dir = path.join(bakery, '.bmad-core')
    await expect(bmadV4.read(dir, {...verify, limits: {file: 1_000_000, total: 1000}})).rejects.toThrow(
      `${dir}: Unexpected files of more than 1000 bytes in all for tiers to read (at ../docs/stories/1.1.order-a-cake.story.md), expected at most 1000 bytes: fewer or smaller files, or raise \`limits.total_mib\` in tiers.json (32 at most)`
    )
    const reading = await bmadV4.read(dir, {...verify, limits: {file: 340, total: 1_000_000}})
    expect(reading.problems.map((problem) => `${path.relative(stories, problem.file)}: ${problem.message}`)).toEqual([
      '1.1.order-a-cake.story.md: Unexpected size of 881 bytes, expected at most 340 bytes; raise `limits.file_mib` in tiers.json (16 at most)',
      '1.2.story.md: Unexpected size of 349 bytes, expected at most 340 bytes; raise `limits.file_mib` in tiers.json (16 at most)'
    ])
    expect(sliced(bakery, reading)).toEqual([
      '2.6.1.pickup-slot.story: docs/stories/2.6.1.pickup-slot.story.md (2, 3)',
      '3.1.z: docs/stories/epic/3/3.1.z.md (1, 0)'
    ])
  })

  it('loads a `.bmad-core` folder as BMAD v4’s, found from the repository and below it', async () => {
    const root = await repository({})
    await fs.cp(bakery, root, {recursive: true})
    expect(await findProjectFolders(path.join(root, 'docs', 'stories'))).toEqual([path.join(root, '.bmad-core')])
    const project = await loadProject(path.join(root, '.bmad-core'))
    expect([project.tool, project.slices.map((slice) => slice.id), project.problems]).toEqual([
      'bmad-v4',
      ['1.1.order-a-cake.story', '1.2.story', '2.6.1.pickup-slot.story', '3.1.z'],
      []
    ])
  })
})

describe('bmad v6, its story folder configured', () => {
  const decoy = {'_bmad-output/implementation-artifacts/9-9-old.md': story('9.9')}

  it('reads the folder `implementation_artifacts` names, in `_bmad-output`, never the default one beside it', async () => {
    const root = await repository({
      '_bmad/bmm/config.yaml':
        'project_name: Bakery\nimplementation_artifacts: "{project-root}/_bmad-output/stories"\noutput_folder: "{project-root}/_bmad-output"\n',
      '_bmad-output/stories/1-1-bake.md': story('1.1'),
      ...decoy
    })
    expect(await bmad.recognises(path.join(root, '_bmad-output'))).toBe(true)
    expect(sliced(root, await bmad.read(path.join(root, '_bmad-output'), verify))).toEqual(['1-1-bake: _bmad-output/stories/1-1-bake.md (1, 0)'])
  })

  it('reads the older `sprint_artifacts`, with `{output_folder}` put in, and a folder of the repository outside `_bmad-output`', async () => {
    const root = await repository({
      '_bmad/bmm/config.yaml': "output_folder: '{project-root}/docs'\nsprint_artifacts: '{output_folder}/sprint-artifacts'\n",
      '_bmad-output/planning-artifacts/prd.md': '# PRD\n',
      'docs/sprint-artifacts/1-1-bake.md': story('1.1'),
      ...decoy
    })
    expect(await bmad.recognises(path.join(root, '_bmad-output'))).toBe(true)
    expect(sliced(root, await bmad.read(path.join(root, '_bmad-output'), verify))).toEqual(['1-1-bake: docs/sprint-artifacts/1-1-bake.md (1, 0)'])
  })

  it('names a configuration it cannot follow, and reads no folder in its place', async () => {
    const problemsOf = async (config: string) => {
      const root = await repository({'_bmad/bmm/config.yaml': config, ...decoy})
      expect(await bmad.recognises(path.join(root, '_bmad-output'))).toBe(true)
      const reading = await bmad.read(path.join(root, '_bmad-output'), verify)
      expect(reading.slices).toEqual([])
      return reading.problems.map((problem) => `${path.relative(root, problem.file)}:${problem.line}: ${problem.message.replace(root, '<root>')}`)
    }
    expect(await problemsOf('implementation_artifacts: "{project-root}/../shared/stories"\n')).toEqual([
      '_bmad/bmm/config.yaml:1: Unexpected `implementation_artifacts` {project-root}/../shared/stories, which is no folder inside the repository <root>, expected a folder in it; no story is read'
    ])
    expect(await problemsOf('implementation_artifacts: "{project-root}/_bmad-output/a\nplanning: x\n')).toEqual([
      '_bmad/bmm/config.yaml:3: Unexpected text that is not YAML (Missing closing "quote), expected BMAD\'s settings; no story is read'
    ])
  })

  it('gates a story once when v4 and v6 both name its folder: v6 reads it, its subfolders too', async () => {
    const root = await repository({
      '.bmad-core/core-config.yaml': 'devStoryLocation: docs/stories\n',
      '_bmad/bmm/config.yaml': 'implementation_artifacts: "{project-root}/docs/stories"\n',
      '_bmad-output/planning-artifacts/prd.md': '# PRD\n',
      'docs/stories/1.1.story.md': story('1.1'),
      'docs/stories/epic-2/2.1.story.md': story('2.1')
    })
    expect(await findProjectFolders(root)).toEqual([path.join(root, '_bmad-output'), path.join(root, '.bmad-core')])
    // v6 reads its story folder's subfolders too: every story there is v6's, none v4's.
    expect(sliced(root, await bmad.read(path.join(root, '_bmad-output'), verify))).toEqual([
      '1.1.story: docs/stories/1.1.story.md (1, 0)',
      '2.1.story: docs/stories/epic-2/2.1.story.md (1, 0)'
    ])
    expect(sliced(root, await bmadV4.read(path.join(root, '.bmad-core'), verify))).toEqual([])
  })
})

describe('a BMAD story’s criteria, v4’s and v6’s', () => {
  const options = {slice: '5.3.story', defaultTier: 'verify'} as const

  it('are its numbered items, those markdown joined to a paragraph too, never the bullets beside them', () => {
    const text = [
      '# Story 5.3: Labels',
      '',
      '## Acceptance Criteria',
      '',
      '**Printing:**',
      '1. **AC1:** Each loaf gets a label.',
      '2. **AC2:** The label names the flour.',
      '',
      '**Quality:**',
      '3. **AC3:** A label is readable at arm’s length.',
      '4. **AC4:** No label peels off in the fridge.',
      '',
      '**Out of scope:**',
      '- Labels in braille',
      ''
    ].join('\n')
    const read = readBmadStory('docs/stories/5.3.story.md', text, options)
    expect([read.story?.contract.criteria.map((item) => [item.position.start.line, item.text]), read.problems]).toEqual([
      [
        [6, 'AC1: Each loaf gets a label.'],
        [7, 'AC2: The label names the flour.'],
        [10, 'AC3: A label is readable at arm’s length.'],
        [11, 'AC4: No label peels off in the fridge.']
      ],
      []
    ])
  })

  it('names a `# Story` or `## Acceptance Criteria` heading that markup hid, at its line', () => {
    const hiddenStory = readBmadStory('docs/stories/5.3.story.md', '<!-- draft\n# Story 5.3: Labels\n', options)
    expect([hiddenStory.story, hiddenStory.problems]).toEqual([
      null,
      [
        {
          file: 'docs/stories/5.3.story.md',
          line: 2,
          message:
            'Unexpected story heading `# Story 5.3: Labels` inside an unclosed HTML comment, expected a heading the reader sees: close the comment with `-->` above it'
        }
      ]
    ])
    const hiddenCriteria = readBmadStory(
      'docs/stories/5.3.story.md',
      '# Story 5.3: Labels\n\n> ## Acceptance Criteria\n\n1. Each loaf gets a label.\n',
      options
    )
    expect(hiddenCriteria.problems.map((problem) => [problem.line, problem.message.slice(0, 72)])).toEqual([
      [1, 'Unexpected story without acceptance criteria, expected `## Acceptance Cr'],
      [3, 'Unexpected acceptance criteria heading `## Acceptance Criteria` inside a']
    ])
  })
})
