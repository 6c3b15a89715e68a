/**
 * `judgeSlices`: which slices are in progress, and what the gate could not
 * read (the project’s problems) as lines that block; `workflowClaims`:
 * where the workflow’s own files call a slice complete, which is never
 * evidence;
 * `findProjectFolder`: the nearest `.greenlight` upward.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  checkApprovable,
  decideStop,
  findProjectFolder,
  judgeProgress,
  judgeSlices,
  projectProblems,
  verifySlices,
  workflowClaims
} from '@verification-tiers/evidence'
import {findSlice, gateContext, loadProject} from '@verification-tiers/project'
import {afterAll, describe, expect, it} from 'vitest'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => fs.rm(folder, {recursive: true, force: true})))
})

async function project(files: Record<string, string>): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-judge-')))
  folders.push(folder)
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(folder, file)), {recursive: true})
    await fs.writeFile(path.join(folder, file), text)
  }
  return path.join(folder, '.greenlight')
}

const contracts = `## S-01: One

### C-01: One

**Slice:** S-01
**Verification:** verify
**Acceptance Criteria:**
- It answers -- verified by: \`true\`
- It reads well

## S-02: Two

### C-02: Two

**Slice:** S-02
**Verification:** auto
**Acceptance Criteria:**
- It builds -- verified by: \`true\`
`

describe('judgeSlices', () => {
  it('judges every slice with no run as never verified, with its own criteria', async () => {
    const dir = await project({'.greenlight/CONTRACTS.md': contracts})
    const judged = await judgeSlices(await loadProject(dir))
    expect(judged).toEqual({
      slices: [
        {
          id: 'S-01',
          name: 'One',
          state: 'not-run',
          remaining: [
            {id: 'C-01.1', text: 'It answers', forPerson: false},
            {id: 'C-01.2', text: 'It reads well', forPerson: true}
          ]
        },
        // A criterion of an auto contract remains only by its command, for `tiers verify`.
        {id: 'S-02', name: 'Two', state: 'not-run', remaining: [{id: 'C-02.1', text: 'It builds', forPerson: false}]}
      ],
      problems: [],
      openTasks: [],
      claims: [],
      broken: null,
      notes: [],
      changed: []
    })
  })

  it('judges a slice the workflow’s files call complete as any other, and names each place with what the slice lacks', async () => {
    const dir = await project({
      '.greenlight/CONTRACTS.md': contracts,
      '.greenlight/STATE.md': '# State\n\n| Slice | Status |\n| --- | --- |\n| S-01 | complete |\n| S-02 | done |\n',
      '.greenlight/slices/S-01.md': '---\nid: S-01\nstep: complete\nstatus: complete\n---\n'
    })
    const judged = await judgeSlices(await loadProject(dir))
    expect(judged.slices.map((slice) => [slice.id, slice.state])).toEqual([
      ['S-01', 'not-run'],
      ['S-02', 'not-run']
    ])
    // A verify slice lacks a person’s approval too; an auto one only its run.
    const word = 'that is the workflow’s word, not evidence'
    expect(judged.claims).toEqual([
      `${path.join(dir, 'STATE.md')}:5 calls S-01 complete; ${word}: it has no passing run and no person’s approval`,
      `${path.join(dir, 'STATE.md')}:6 calls S-02 complete; ${word}: it has no passing run`,
      `${path.join(dir, 'slices', 'S-01.md')}:4 calls S-01 complete; ${word}: it has no passing run and no person’s approval`
    ])
    expect(decideStop({...judged, blocks: 0})).toMatchObject({case: 'missing', decision: 'block'})
  })

  it('turns each of the project’s problems into a line naming the file and line, which blocks; no approval is taken', async () => {
    const dir = await project({'.greenlight/CONTRACTS.md': contracts})
    const loaded = await loadProject(dir)
    const file = path.join(dir, 'CONTRACTS.md')
    loaded.problems.push(
      {file, line: 3, message: 'Unexpected heading that was not read as a contract, expected `### C-NN: Name`'},
      {file, line: null, message: 'Unexpected file'}
    )
    const lines = [`${file}:3: Unexpected heading that was not read as a contract, expected \`### C-NN: Name\``, `${file}: Unexpected file`]
    expect(projectProblems(loaded)).toEqual(lines)
    const judged = await judgeSlices(loaded)
    expect(judged.problems).toEqual(lines)
    expect(decideStop({...judged, blocks: 0})).toMatchObject({case: 'unchecked', decision: 'block'})
    await expect(checkApprovable(loaded, gateContext(loaded, findSlice(loaded, 'S-01')))).rejects.toThrow(
      /^Unexpected approval of slice S-01: the gate could not read or match part of the project \(/
    )
  })
})

describe('judgeProgress', () => {
  it('calls an auto slice with a fresh passing run done, and a verify one in progress until a person decides it', async () => {
    const dir = await project({'.greenlight/CONTRACTS.md': contracts, '.greenlight/config.json': '{"test": {"command": "true"}}'})
    const loaded = await loadProject(dir)
    await verifySlices(loaded, loaded.slices)
    const judged = await judgeProgress(loaded)
    expect(judged.slices.map(({judgement, unanswered}) => [judgement.id, judgement.state, unanswered])).toEqual([
      ['S-01', 'passed', true],
      ['S-02', 'done', false]
    ])
    // The stop hook holds on what is in progress, and only that.
    expect((await judgeSlices(loaded)).slices.map((slice) => slice.id)).toEqual(['S-01'])
    // An edit after the run: both in progress again, stale.
    await fs.writeFile(path.join(path.dirname(dir), 'notes.txt'), 'new\n')
    expect((await judgeProgress(loaded)).slices.map(({judgement}) => [judgement.id, judgement.state])).toEqual([
      ['S-01', 'stale'],
      ['S-02', 'stale']
    ])
  })
})

describe('workflowClaims', () => {
  it('reads slice files’ front matter, STATE.md checked items and table rows under a Status column, each with its line', async () => {
    const dir = await project({
      '.greenlight/CONTRACTS.md': contracts,
      '.greenlight/slices/a.md': '---\nid: S-01\nstatus: complete\n---\n',
      '.greenlight/slices/b.md': '---\nid: S-02\nstatus: in progress\n---\n',
      '.greenlight/slices/c.md': '---\nid: S-03\nstatus: complete\nstatus: pending\n---\n',
      '.greenlight/STATE.md':
        '- [x] s4a the shell\n- [ ] S-05 later\n\n| Slice | Name | Status |\n| --- | --- | --- |\n| S-06 | Six | Done |\n| S-07 | Seven | pending |\n\n| Slice | Deps |\n| --- | --- |\n| S-08 | complete |\n'
    })
    const state = path.join(dir, 'STATE.md')
    // A field given twice (c.md) says nothing; a table without a Status column says nothing.
    expect(await workflowClaims(dir)).toEqual([
      {slice: 's4a', file: state, line: 1},
      {slice: 'S-06', file: state, line: 6},
      {slice: 'S-01', file: path.join(dir, 'slices', 'a.md'), line: 3}
    ])
  })

  it('keeps every place, even where two files disagree: a claim is a claim', async () => {
    const dir = await project({
      '.greenlight/CONTRACTS.md': contracts,
      '.greenlight/slices/a.md': '---\nid: S-01\nstatus: complete\n---\n',
      '.greenlight/STATE.md': '| Slice | Status |\n| --- | --- |\n| S-01 | pending |\n| S-02 | complete |\n'
    })
    expect(await workflowClaims(dir)).toEqual([
      {slice: 'S-02', file: path.join(dir, 'STATE.md'), line: 4},
      {slice: 'S-01', file: path.join(dir, 'slices', 'a.md'), line: 3}
    ])
  })

  it('says nothing for state files that are missing or not regular files', async () => {
    const dir = await project({'.greenlight/CONTRACTS.md': contracts})
    await fs.mkdir(path.join(dir, 'STATE.md'))
    expect(await workflowClaims(dir)).toEqual([])
  })
})

describe('findProjectFolder', () => {
  it('finds `.greenlight` in the folder or the nearest above it, else null', async () => {
    const dir = await project({'.greenlight/CONTRACTS.md': contracts, 'src/deep/file.txt': ''})
    const root = path.dirname(dir)
    expect(await findProjectFolder(root)).toBe(dir)
    expect(await findProjectFolder(path.join(root, 'src', 'deep'))).toBe(dir)
    expect(await findProjectFolder(path.join(root, 'src', 'no-such-folder'))).toBe(dir)
    const elsewhere = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'verification-tiers-judge-')))
    folders.push(elsewhere)
    expect(await findProjectFolder(elsewhere)).toBe((await findProjectFolder(path.dirname(elsewhere))) ?? null)
  })
})
