import {describe, expect, it} from 'vitest'
import {agentMarkers, findAgentMarker, isAgentMarker, personOnly, presence} from '../lib/person.js'

describe('agentMarkers', () => {
  it('holds every marker the brief names, once each', () => {
    const names = agentMarkers.map((marker) => (marker.value === undefined ? marker.variable : `${marker.variable}=${marker.value}`))
    expect(new Set(names).size).toBe(names.length)
    for (const name of [
      'AI_AGENT',
      'AGENT',
      'CLAUDECODE',
      'CLAUDE_CODE_ENTRYPOINT',
      'CODEX_THREAD_ID',
      'CODEX_CI',
      'CODEX_SANDBOX*',
      'GEMINI_CLI',
      'CURSOR_AGENT',
      'CURSOR_EXTENSION_HOST_ROLE=agent-exec',
      'COPILOT_AGENT',
      'COPILOT_CLI',
      'COPILOT_AGENT_SESSION_ID',
      'OPENCODE',
      'CLINE_ACTIVE'
    ]) {
      expect(names).toContain(name)
    }
    // Set in a person's terminal too, or only for hooks: never a marker.
    for (const name of ['CURSOR_TRACE_ID', 'TERM_PROGRAM', 'CLAUDE_PROJECT_DIR', 'CI', 'GITHUB_ACTIONS']) expect(isAgentMarker(name, '1')).toBe(false)
  })
})

describe('findAgentMarker', () => {
  it('names the agent of the first marker set and not empty, in the registry’s order', () => {
    expect(findAgentMarker({})).toBeNull()
    expect(findAgentMarker({CLAUDECODE: ''})).toBeNull()
    expect(findAgentMarker({CLAUDECODE: '1', AI_AGENT: 'claude-code'})).toEqual({variable: 'CLAUDECODE', agent: 'Claude Code', value: null})
    // Amp sets Claude Code's variable too: its own names it.
    expect(findAgentMarker({CLAUDECODE: '1', AGENT: 'amp'})).toEqual({variable: 'AGENT', agent: 'Amp', value: 'amp'})
    expect(findAgentMarker({AGENT: '1', OPENCODE: '1'})).toEqual({variable: 'OPENCODE', agent: 'opencode', value: null})
    expect(findAgentMarker({AGENT: '1'})).toEqual({variable: 'AGENT', agent: 'a coding agent', value: null})
  })

  it('takes a value marker only with its value (in any case), and a prefix marker by any name it starts', () => {
    expect(findAgentMarker({CURSOR_EXTENSION_HOST_ROLE: 'user'})).toBeNull()
    expect(findAgentMarker({CURSOR_EXTENSION_HOST_ROLE: 'Agent-Exec'})).toEqual({variable: 'CURSOR_EXTENSION_HOST_ROLE', agent: 'Cursor', value: 'agent-exec'})
    expect(findAgentMarker({CODEX_SANDBOX_NETWORK_DISABLED: '1'})).toEqual({variable: 'CODEX_SANDBOX_NETWORK_DISABLED', agent: 'Codex', value: null})
    expect(findAgentMarker({CODEX_SANDBOX: 'seatbelt'})).toMatchObject({variable: 'CODEX_SANDBOX', agent: 'Codex'})
    expect(isAgentMarker('CODEX_SANDBOX_X', '')).toBe(false)
  })
})

describe('presence and personOnly', () => {
  it('is the person only with no marker and a terminal', () => {
    expect(presence({}, true)).toEqual({kind: 'person'})
    expect(presence({}, false)).toEqual({kind: 'no-terminal'})
    expect(presence({GEMINI_CLI: '1'}, true)).toEqual({kind: 'agent', variable: 'GEMINI_CLI', agent: 'Gemini CLI', value: null})
  })

  it('says in one line where the answer came from and what the person runs', () => {
    expect(
      personOnly('approval of slice S-01', {kind: 'agent', variable: 'CLAUDECODE', agent: 'Claude Code', value: null}, [
        'npx tiers review S-01',
        'npx tiers respond S-01 yes'
      ])
    ).toBe(
      'Unexpected approval of slice S-01 from Claude Code’s command (CLAUDECODE is set), expected the person’s own answer at a terminal: run `npx tiers review S-01` (or `npx tiers respond S-01 yes`) in your terminal'
    )
    expect(personOnly('approval of slice S-01', {kind: 'no-terminal'}, ['tiers review S-01'])).toBe(
      'Unexpected approval of slice S-01 from a command without a terminal (standard input is not a TTY), expected the person’s own answer at a terminal: run `tiers review S-01` in your terminal'
    )
    expect(personOnly('review of slice S-01', {kind: 'agent', variable: 'AI_AGENT', agent: 'a coding agent', value: null}, ['tiers review S-01'])).toMatch(
      /from a coding agent’s command \(AI_AGENT is set\)/
    )
    expect(
      personOnly('review of slice S-01', {kind: 'agent', variable: 'CURSOR_EXTENSION_HOST_ROLE', agent: 'Cursor', value: 'agent-exec'}, ['tiers review S-01'])
    ).toMatch(/from Cursor’s command \(CURSOR_EXTENSION_HOST_ROLE is agent-exec\)/)
  })
})
