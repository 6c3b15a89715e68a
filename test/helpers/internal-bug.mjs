/**
 * Preloaded into a `tiers` process (`node --import`) to plant a bug: with
 * `TIERS_TEST_BUG` set, `process.cwd()` throws a TypeError, as code that is
 * wrong throws (no system error code), so a test can see what `tiers` does
 * with an error it did not expect.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
if (process.env.TIERS_TEST_BUG) {
  process.cwd = () => {
    throw new TypeError(process.env.TIERS_TEST_BUG)
  }
}
