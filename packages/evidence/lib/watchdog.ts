/**
 * A small shell process that outlives this one to end the groups it leaves:
 * SIGKILL to `tiers` runs no handler, so without it every running check
 * would go on alone. It learns each group (`+pgid`) and its end (`-pgid`) on
 * its standard input; when that input ends, as it does however this process
 * ends, it sends what is left SIGTERM, then SIGKILL a second later.
 */
import {spawn} from 'node:child_process'
import type {ChildProcess} from 'node:child_process'
import {Socket} from 'node:net'

// Ignores the signals a terminal sends to the foreground job: its work starts when `tiers` is gone.
const script = `trap '' INT TERM HUP
groups=' '
while IFS= read -r line; do
  g=\${line#?}
  case $line in
    +*) groups="$groups$g " ;;
    -*) case $groups in *" $g "*) groups="\${groups%% $g *} \${groups#* $g }" ;; esac ;;
  esac
done
[ "$groups" = ' ' ] && exit 0
for g in $groups; do kill -TERM -$g 2>/dev/null; done
sleep 1
for g in $groups; do kill -KILL -$g 2>/dev/null; done`

let watchdog: ChildProcess | null = null

/** The watchdog’s input, started on first use; `null` when it cannot run. */
function input(): ChildProcess['stdin'] {
  if (process.platform === 'win32') return null
  if (!watchdog) {
    try {
      // Its own group, so a Ctrl-C or a `kill` of `tiers`’ group does not take it along.
      watchdog = spawn('/bin/sh', ['-c', script], {cwd: '/', env: {PATH: '/usr/bin:/bin'}, detached: true, stdio: ['pipe', 'ignore', 'ignore']})
    } catch {
      return null
    }
    // Without it the exit hook and the signal handlers still end the groups; only SIGKILL is not covered.
    watchdog.on('error', () => {})
    watchdog.stdin?.on('error', () => {})
    // It must not keep this process alive.
    watchdog.unref()
    if (watchdog.stdin instanceof Socket) watchdog.stdin.unref()
  }
  return watchdog.stdin
}

/** Start the watchdog, if it is not running yet: before a command starts, so its group is known at once. */
export function startWatchdog(): void {
  input()
}

/** Have the watchdog end group `pgid` if this process ends first. */
export function watchGroup(pgid: number): void {
  input()?.write(`+${pgid}\n`)
}

/** Group `pgid` has ended: the watchdog forgets it (its number may be reused). */
export function unwatchGroup(pgid: number): void {
  if (watchdog?.stdin?.writable) watchdog.stdin.write(`-${pgid}\n`)
}
