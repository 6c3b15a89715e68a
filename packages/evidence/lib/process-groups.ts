/**
 * The process groups of the commands `runCommand` started and has not yet
 * seen end, so that whatever ends this process (a signal, an error, a normal
 * exit, even SIGKILL) ends them too. A process that leaves its group
 * (`setsid`) is found, on Linux, by the marker every command gets in its
 * environment (`TIERS_RUN_ID`), which its children inherit.
 */
import {readdirSync, readFileSync} from 'node:fs'
import {startWatchdog, unwatchGroup, watchGroup} from './watchdog.js'

export {startWatchdog}

const live = new Set<number>()
const liveMarkers = new Set<string>()
let exitHook = false

/** The variable that marks every process a command starts, so one that left its group can still be found. */
export const runMarkerName = 'TIERS_RUN_ID'

// How often to look whether a group has ended.
const pollMs = 20

/** Keep `pgid` (a leader’s pid) until `releaseGroup`; its processes die with this one. */
export function trackGroup(pgid: number): void {
  live.add(pgid)
  watchGroup(pgid)
  if (!exitHook) {
    exitHook = true
    // Nothing can wait in an `exit` handler: SIGKILL, at once.
    process.on('exit', () => {
      for (const group of live) signalGroup(group, 'SIGKILL')
      for (const marker of liveMarkers) for (const pid of markedProcesses(marker)) signalProcess(pid, 'SIGKILL')
    })
  }
}

/** Keep `marker` until `stopMarked`: processes holding it die with this one. */
export function trackMarker(marker: string): void {
  liveMarkers.add(marker)
}

/**
 * The processes (other than this one) whose environment holds
 * `TIERS_RUN_ID=<marker>`: on Linux, read from `/proc/<pid>/environ`, which
 * only the same user can read; elsewhere none are found.
 */
export function markedProcesses(marker: string): number[] {
  if (process.platform !== 'linux') return []
  const entry = Buffer.from(`\0${runMarkerName}=${marker}\0`)
  const first = Buffer.from(`${runMarkerName}=${marker}\0`)
  const found: number[] = []
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    let environ: Buffer
    try {
      environ = readFileSync(`/proc/${name}/environ`)
    } catch {
      continue
    }
    if (environ.includes(entry) || environ.subarray(0, first.length).equals(first)) found.push(Number(name))
  }
  return found
}

/** End every process holding `marker` (see `markedProcesses`): SIGTERM, then SIGKILL to those left after `graceMs`. */
export async function stopMarked(marker: string, graceMs: number): Promise<void> {
  const marked = markedProcesses(marker)
  for (const pid of marked) signalProcess(pid, 'SIGTERM')
  const until = Date.now() + graceMs
  let left = marked.filter(isRunning)
  while (left.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, pollMs))
    left = left.filter(isRunning)
  }
  for (const pid of left) signalProcess(pid, 'SIGKILL')
  liveMarkers.delete(marker)
}

function signalProcess(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal)
    return true
  } catch {
    return false
  }
}

/** Whether a process runs (a zombie does not, on Linux). */
function isRunning(pid: number): boolean {
  if (!signalProcess(pid, 0)) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state !== 'Z' && state !== 'X'
  } catch {
    return process.platform !== 'linux'
  }
}

/** Stop keeping `pgid`: its processes are gone. */
export function releaseGroup(pgid: number): void {
  live.delete(pgid)
  unwatchGroup(pgid)
}

/** The groups kept now. */
export function liveGroups(): number[] {
  return [...live]
}

/**
 * End a group: SIGTERM, then SIGKILL to what is left after `graceMs`, then
 * wait up to `killWaitMs` for it to go. Resolves to whether it is gone.
 */
export async function stopGroup(pgid: number, graceMs: number, killWaitMs = 500): Promise<boolean> {
  let gone = !signalGroup(pgid, 'SIGTERM') || (await groupEnds(pgid, graceMs))
  if (!gone) {
    signalGroup(pgid, 'SIGKILL')
    gone = await groupEnds(pgid, killWaitMs)
  }
  // A group that outlives SIGKILL (a process stuck in the kernel) stays kept, for the exit hook.
  if (gone) releaseGroup(pgid)
  return gone
}

/** End every kept group at once (see `stopGroup`). */
export async function stopAllGroups(graceMs: number, killWaitMs = 300): Promise<void> {
  await Promise.all([...liveGroups().map((pgid) => stopGroup(pgid, graceMs, killWaitMs)), ...[...liveMarkers].map((marker) => stopMarked(marker, graceMs))])
}

/** Send `signal` to every process of the group; false when it has none (or none of ours). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal)
    return true
  } catch {
    return false
  }
}

/** Resolves to true as soon as the group has no running process, or false after `ms`. */
async function groupEnds(pgid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  for (;;) {
    if (!groupRuns(pgid)) return true
    if (Date.now() >= until) return false
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

/**
 * Whether a process of the group still runs. A killed process whose parent
 * is gone stays a zombie until init reaps it, and a signal to a zombie
 * succeeds: on Linux, zombies do not count.
 */
function groupRuns(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false
  if (process.platform !== 'linux') return true
  let names: string[]
  try {
    names = readdirSync('/proc')
  } catch {
    return true
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // `pid (comm) state ppid pgrp …`: the name may hold spaces and parentheses, so read after the last `)`.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(group) === pgid && state !== 'Z' && state !== 'X') return true
  }
  return false
}
