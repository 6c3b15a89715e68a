/**
 * Who is answering: an approval, an escalation choice, or a withdrawal of an
 * answer is taken only from the person, at a terminal.
 * A coding agent runs its commands in the same repository with the same
 * rights, so `tiers` looks at what it can see of the command it runs in: the
 * variables coding agents set in the environment of the commands they run
 * (`agentMarkers`, kept with every agent tiers knows in
 * `@verification-tiers/setup/agents`), and whether standard input is a
 * terminal (the commands of most agents get a pipe, a socket or nothing).
 *
 * This stops an agent that is not trying to hide, not one set on it (it can
 * clear the variables or make itself a terminal): the README’s Security
 * section says what closes that gap (`tiers ci` and a review of the
 * committed state).
 */
import type {AnswerBy} from '@verification-tiers/runtime'
import {agentMarkers} from '@verification-tiers/setup/agents'
import type {AgentMarker} from '@verification-tiers/setup/agents'

// Every coding agent tiers knows is in one list: the markers of their commands beside their stop hooks.
export {agentMarkers}
export type {AgentMarker}

/** Whether `name` is a variable `marker` stands for. */
function names(marker: AgentMarker, name: string): boolean {
  return marker.variable.endsWith('*') ? name.startsWith(marker.variable.slice(0, -1)) : name === marker.variable
}

/** Whether `marker` marks the variable `name` set to `value`. */
function marks(marker: AgentMarker, name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || !names(marker, name)) return false
  return marker.value === undefined || value.trim().toLowerCase() === marker.value
}

/** Whether the variable `name`, set to `value`, marks a coding agent’s command. */
export function isAgentMarker(name: string, value: string | undefined): boolean {
  return agentMarkers.some((marker) => marks(marker, name, value))
}

/** A marker found: the variable as set, and the agent it names. */
export interface AgentFound {
  variable: string
  agent: string
  /** The value that marked it, when the marker takes only one (`agent-exec`). */
  value: string | null
}

/** The first marker of `agentMarkers` that `env` holds, or `null`. */
export function findAgentMarker(env: NodeJS.ProcessEnv): AgentFound | null {
  const set = Object.keys(env).sort()
  for (const marker of agentMarkers) {
    const variable = set.find((name) => marks(marker, name, env[name]))
    if (variable !== undefined) return {variable, agent: marker.agent, value: marker.value ?? null}
  }
  return null
}

/** Who can be answering, as far as `tiers` can see. */
export type Presence = {kind: 'person'} | ({kind: 'agent'} & AgentFound) | {kind: 'no-terminal'}

/**
 * `person` when no agent’s marker is set and standard input is a terminal;
 * else what gave it away (a marker first: it names the agent).
 */
export function presence(env: NodeJS.ProcessEnv, stdinTerminal: boolean): Presence {
  const found = findAgentMarker(env)
  if (found) return {kind: 'agent', ...found}
  return stdinTerminal ? {kind: 'person'} : {kind: 'no-terminal'}
}

/**
 * The refusal of `what` (`approval of slice S-01`) when it does not come from
 * the person, in one line: where it came from, and the commands
 * (`npx tiers review S-01`, as installed) the person runs instead.
 */
export function personOnly(what: string, from: Exclude<Presence, {kind: 'person'}>, commands: readonly [string, ...string[]]): string {
  const source =
    from.kind === 'agent'
      ? `${from.agent === 'a coding agent' ? 'a coding agent’s' : `${from.agent}’s`} command (${from.variable} ${from.value === null ? 'is set' : `is ${from.value}`})`
      : 'a command without a terminal (standard input is not a TTY)'
  const [first, ...others] = commands.map((command) => `\`${command}\``)
  const run = others.length > 0 ? `${first} (or ${others.join(', or ')})` : first
  return `Unexpected ${what} from ${source}, expected the person’s own answer at a terminal: run ${run} in your terminal`
}

/**
 * Git’s `user.name` and `user.email` in `cwd`, as `git config` gives them
 * (the repository’s, else the user’s); `null` when neither is set or git
 * cannot be asked.
 */
export async function gitIdentity(cwd: string): Promise<AnswerBy | null> {
  const [name, email] = await Promise.all([gitConfig(cwd, 'user.name'), gitConfig(cwd, 'user.email')])
  return name === null && email === null ? null : {name, email}
}

/** One git setting, or `null` when it is unset or git fails (not installed, too slow): asked as the gate asks git everything. */
async function gitConfig(cwd: string, key: string): Promise<string | null> {
  const {GitError, runGit} = await import('@verification-tiers/evidence/gate')
  try {
    const value = (await runGit(cwd, ['config', '--get', key], {timeoutMs: 5000, maxBytes: 64 * 1024})).trim()
    return value === '' ? null : value
  } catch (error) {
    if (error instanceof GitError) return null
    throw error
  }
}
