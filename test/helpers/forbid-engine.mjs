/**
 * Preloaded into a `tiers` process (`node --import`) to prove what a run
 * does not load: with `TIERS_TEST_FORBID` set, resolving the markdown
 * parser, unified-engine, a remark-lint rule or a preset throws, so a run
 * that needs one fails, and one that replays the lint cache whole passes.
 * With `TIERS_TEST_FORBID=replay`, every package but the lint cache’s reader
 * (`@verification-tiers/lint/replay`, which reads with
 * `@verification-tiers/input/read`) throws: vfile and the reporters too.
 *
 * Plain JavaScript: Node loads it before the bin, without a TypeScript loader.
 */
import {register} from 'node:module'

if (process.env.TIERS_TEST_FORBID) register('./forbid-engine-hooks.mjs', import.meta.url, {data: {mode: process.env.TIERS_TEST_FORBID}})
