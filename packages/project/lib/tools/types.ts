import type {Tier} from '@verification-tiers/contracts'
import type {ReadLimits} from '@verification-tiers/runtime'
import type {LoadedContract, ProjectSlice} from '../project.js'
import type {ProjectProblem} from '../problems.js'

/** A task of a tool's `tasks.md` that is not ticked: the slice is not ready for its checkpoint while any is open. */
export interface OpenTask {
  /** The task as written, without its checkbox. */
  text: string
  /** Path as messages show it. */
  file: string
  line: number
}

/** What an open optional task does (Kiro's `- [ ]*`): `show` (the default) lists it without holding the slice; `hold` holds it as any open task. */
export type OptionalTasks = 'show' | 'hold'

/** What a tool's reader read from its folder: contracts, slices (units of delivery) and what it could not read. */
export interface ToolReading {
  contracts: LoadedContract[]
  /** Each slice with its contracts; `openTasks` lists the unticked tasks of its `tasks.md` (empty when none or no file). */
  slices: ProjectSlice[]
  /** Files, folders and lines the reader saw and did not read (a folder not in the tool's format, a requirement without scenarios…): never dropped in silence. */
  problems: ProjectProblem[]
}

/** How a tool's reader is called. */
export interface ToolReadOptions {
  /** The tier of a contract whose unit states none (`verify` unless the project's configuration sets another). */
  defaultTier: Tier
  /** What an open optional task does (`tasks.optional` of the settings). */
  optionalTasks: OptionalTasks
  /** How much of the folder the reader reads (`limits` of the settings); the runtime's `defaultReadLimits` when not given. */
  limits?: ReadLimits
}

/**
 * A spec-driven tool whose folder `tiers` reads (Greenlight, spec-kit,
 * OpenSpec, Kiro): one module per tool, registered in `tools/index.ts`.
 */
export interface ProjectTool {
  /** As messages and `--json` name it: `greenlight`, `spec-kit`, `openspec`, `kiro`. */
  name: string
  /** The folder, relative to the repository root, that holds the tool's files: `.greenlight`, `specs`, `openspec`, `.kiro`. */
  folder: string
  /** Whether `dir` (a folder named `folder`) is in this tool's format, by what it holds. */
  recognises(dir: string): Promise<boolean>
  /** Read `dir` into contracts, slices and problems. Throws a `ProjectError` only when nothing of it can be read. */
  read(dir: string, options: ToolReadOptions): Promise<ToolReading>
  /** Whether slice `id`'s unit was archived the way the tool archives shipped work (GSD's `milestones/*-phases/`): gone from the slices, not vanished. */
  archived?(dir: string, id: string): Promise<boolean>
}
