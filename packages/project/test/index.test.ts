/**
 * The library API of project loading, on the example project: what the
 * readme’s Use section prints, and the errors a caller gets.
 */
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import {findSlice, gateContext, loadProject, ProjectError, UserError} from '@verification-tiers/project'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../content/examples/greenlight-project/.greenlight')
// Read only: no contracts cache written into the example. Set for this file
// alone: the unit tests share their process.
const noCache = process.env.TIERS_NO_CACHE
beforeAll(() => {
  process.env.TIERS_NO_CACHE = '1'
})
afterAll(() => {
  if (noCache === undefined) delete process.env.TIERS_NO_CACHE
  else process.env.TIERS_NO_CACHE = noCache
})

describe('@verification-tiers/project', () => {
  it('loads the example project as the readme’s Use section says', async () => {
    const project = await loadProject(example)
    const {slice} = gateContext(project, findSlice(project, 'S-01'))
    expect([project.slicesFrom, project.contracts.length]).toEqual(['GRAPH.json', 6])
    expect([slice.tier, slice.criteria.length, slice.steps.length]).toEqual(['verify', 5, 3])
    expect(project.slices.map((one) => [one.id, one.name, one.contracts.map((loaded) => loaded.contract.id)])).toEqual([
      ['S-01', 'Campaign Cards', ['C-01', 'C-02', 'C-03']],
      ['S-02', 'Currency Formatting', ['C-04', 'C-05', 'C-06']]
    ])
  })

  it('finds a slice in any case, and refuses an unknown one or a path with a UserError', async () => {
    const project = await loadProject(example)
    expect(findSlice(project, 's-02').id).toBe('S-02')
    expect(() => findSlice(project, 'S-09')).toThrow(new UserError('Unexpected slice `S-09`, expected one of: S-01, S-02'))
    expect(() => findSlice(project, '../../x')).toThrow(UserError)
  })

  it('reads a folder without contracts with a problem naming it (the gate fails closed), and rejects a missing folder with a UserError', async () => {
    expect((await loadProject(path.join(example, 'contracts'))).problems.map((problem) => problem.file)).toEqual([path.join(example, 'contracts')])
    await expect(loadProject(path.join(example, 'no-such-folder'))).rejects.toThrow(UserError)
    expect(new ProjectError('GRAPH.json', 'bad').message).toBe('GRAPH.json: bad')
  })
})
