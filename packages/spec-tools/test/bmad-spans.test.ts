/**
 * The lines a BMAD spec's tasks may stand on end where the list of its
 * `**Execution:**` items ends: markdown may end a list at the first column
 * of the next block's line (its last item leaving a fence open), and a box
 * on that line is the next block's, no task.
 */
import {describe, expect, it} from 'vitest'
import {readBmadSpec} from '../lib/bmad.js'

const spec = (body: string) => `---\ntitle: Join by code\nstatus: in-progress\n---\n\n# Join by code\n\n${body}`

describe('readBmadSpec task lines', () => {
  it('ends the Execution list on its own last line, when its last item leaves a fence open', () => {
    const {taskLines} = readBmadSpec('spec-join.md', spec('**Execution:**\n\n- [ ] Add the route\n  ```sh\n  npm test\n\n> - [ ] a reviewer’s aside\n'), {
      slice: 'spec-join',
      defaultTier: 'verify'
    })
    expect(taskLines).toEqual([[10, 13]])
  })

  it('holds every line of a closed list', () => {
    const {taskLines} = readBmadSpec('spec-join.md', spec('**Execution:**\n\n- [ ] Add the route\n- [x] Add the page\n\nDone.\n'), {
      slice: 'spec-join',
      defaultTier: 'verify'
    })
    expect(taskLines).toEqual([[10, 11]])
  })
})
