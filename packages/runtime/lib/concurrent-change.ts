/** Another process changed the file while this one held (or had lost) its lock, twice: nothing was written. */
export class ConcurrentChangeError extends Error {
  constructor(readonly file: string) {
    super(`${file}: Unexpected change by another \`tiers\` while this one held the file’s lock, expected none: nothing was written; run the command again`)
    this.name = 'ConcurrentChangeError'
  }
}
