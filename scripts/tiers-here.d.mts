/** What a run of `tiers` gave: its exit code, and what it wrote to stdout and stderr. */
export interface InProcessRun {
  code: number
  stdout: string
  stderr: string
}

/** Run `tiers args` in `cwd` in this process (the built cli's `main`), in turn with every other run; standard input is a terminal unless `terminal` is false. */
export declare function runTiersInProcess(
  cwd: string,
  args: readonly string[],
  options?: {input?: string; env?: Record<string, string | undefined>; terminal?: boolean}
): Promise<InProcessRun>
