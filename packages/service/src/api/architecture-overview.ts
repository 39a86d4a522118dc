// Wire schema of the architecture overview (GET /projects/{id}/architecture/overview; the spec
// says "not shown"): the structure the engine computes from an assessment's code graph, per
// repository, stored as one jsonb document per project.
import { z } from 'zod';
import { Timestamp, Uuid } from './common.js';

const Count = z.number().int().min(0);
const Percent = z.number().min(0).max(100);
const Unit = z.number().min(0).max(1);
const Path = z.string().meta({ description: 'repository-relative path; `.` is the repository root' });

export const ArchitectureLanguageSchema = z
  .object({ language: z.string(), files: Count, lines_of_code: Count, percent: Percent.meta({ description: 'share of the code lines' }) })
  .strict()
  .meta({ id: 'ArchitectureLanguage' });

export const ArchitectureComponentSchema = z
  .object({
    path: Path,
    files: Count,
    source_files: Count,
    test_files: Count,
    lines_of_code: Count,
    test_lines_of_code: Count,
    main_language: z.string().nullable(),
    afferent_coupling: Count.meta({ description: 'Ca: source modules outside the component that import a module inside it' }),
    efferent_coupling: Count.meta({ description: 'Ce: source modules inside the component that import a module outside it' }),
    instability: Unit.nullable().meta({ description: 'I = Ce / (Ca + Ce) (Robert C. Martin); null when the component has no coupling' }),
    abstractness: Unit.nullable().meta({ description: 'A = exported interfaces and types / all own exports; null without exports' }),
    distance: Unit.nullable().meta({ description: 'D = |A + I - 1|, distance from the main sequence; null when A or I is null' }),
    layer: Count.meta({ description: 'level in the component dependency structure; 0 depends on no other component' }),
    in_cycle: z.boolean().meta({ description: 'true when the component is part of a dependency cycle between components' }),
    depends_on: z.array(Path),
    used_by: z.array(Path),
  })
  .strict()
  .meta({ id: 'ArchitectureComponent' });
export type ArchitectureComponent = z.infer<typeof ArchitectureComponentSchema>;

export const ComponentDependencySchema = z
  .object({
    from: Path,
    to: Path,
    imports: Count.meta({ description: 'import statements from `from` into `to`' }),
    modules: Count.meta({ description: 'distinct modules of `from` with such an import' }),
  })
  .strict()
  .meta({ id: 'ComponentDependency' });

export const ArchitectureLayersSchema = z
  .object({
    levels: z.array(z.object({ level: Count, components: z.array(Path) }).strict()),
    dependencies: z.array(ComponentDependencySchema),
    cycles: z.array(z.array(Path)).meta({ description: 'groups of components that depend on one another' }),
  })
  .strict()
  .meta({ id: 'ArchitectureLayers' });

export const ImportCycleSchema = z
  .object({
    modules: z.array(Path).meta({ description: 'every module of the strongly connected group' }),
    chain: z.array(Path).meta({ description: 'one shortest import chain through the group; the last module imports the first' }),
    runtime: z.boolean().meta({ description: 'false when the cycle exists only through type-only imports' }),
  })
  .strict()
  .meta({ id: 'ImportCycle' });

export const HotSpotsSchema = z
  .object({
    most_imported: z.array(z.object({ path: Path, imported_by: Count }).strict()),
    largest_files: z.array(z.object({ path: Path, lines_of_code: Count, functions: Count }).strict()),
    highest_churn: z.array(z.object({ path: Path, lines_changed_30d: Count, commits_30d: Count, authors: Count }).strict()),
  })
  .strict()
  .meta({ id: 'ArchitectureHotSpots' });

export const ExternalDependencySchema = z
  .object({
    name: z.string().meta({ description: 'package name; Node built-ins as `node:<name>`' }),
    builtin: z.boolean(),
    importing_modules: Count,
    test_only: z.boolean().meta({ description: 'imported by test files only' }),
    type_only: z.boolean().meta({ description: 'every import of it is erased at run time' }),
  })
  .strict()
  .meta({ id: 'ExternalDependency' });

export const TestLayoutSchema = z
  .object({
    test_files: Count,
    test_lines_of_code: Count,
    test_to_code_ratio: z.number().min(0).meta({ description: 'test lines of code per source line of code' }),
    placement: z.enum(['colocated', 'separate', 'mixed', 'none']).meta({
      description:
        '`separate`: at least 80% of test files live under a test directory (test, tests, __tests__, spec, e2e, ...); `colocated`: at least 80% beside the code; `mixed` otherwise',
    }),
    test_directories: z.array(Path),
    frameworks: z.array(z.string()),
    tested_modules_percent: Percent.nullable().meta({ description: 'share of source modules imported directly by a test file' }),
  })
  .strict()
  .meta({ id: 'TestLayout' });

export const RepositoryArchitectureSchema = z
  .object({
    repository_id: Uuid.nullable(),
    full_name: z.string().nullable(),
    head_sha: z.string().nullable(),
    files: Count,
    source_files: Count,
    test_files: Count,
    lines_of_code: Count,
    test_lines_of_code: Count,
    internal_imports: Count.meta({ description: 'resolved imports between source modules' }),
    languages: z.array(ArchitectureLanguageSchema),
    components: z.array(ArchitectureComponentSchema),
    entry_points: z.array(z.object({ path: Path, reachable_modules: Count, reason: z.string() }).strict()),
    layers: ArchitectureLayersSchema,
    import_cycles: z.object({ total: Count, runtime: Count, items: z.array(ImportCycleSchema) }).strict(),
    hot_spots: HotSpotsSchema,
    external_dependencies: z.object({ total: Count, items: z.array(ExternalDependencySchema) }).strict(),
    test_layout: TestLayoutSchema,
    git_available: z.boolean().meta({ description: 'false when churn could not be read (no git history)' }),
  })
  .strict()
  .meta({ id: 'RepositoryArchitecture' });
export type RepositoryArchitecture = z.infer<typeof RepositoryArchitectureSchema>;

/** What the engine computes and `saveOverview` stores. */
export const ArchitectureOverviewContentSchema = z
  .object({
    summary: z.string().meta({ description: 'a few generated sentences' }),
    repositories: z.array(RepositoryArchitectureSchema),
  })
  .strict();
export type ArchitectureOverviewContent = z.infer<typeof ArchitectureOverviewContentSchema>;

export const ArchitectureOverviewSchema = z
  .object({
    project_id: Uuid,
    generated_at: Timestamp,
    summary: z.string(),
    repositories: z.array(RepositoryArchitectureSchema),
  })
  .strict()
  .meta({ id: 'ArchitectureOverview' });
export type ArchitectureOverview = z.infer<typeof ArchitectureOverviewSchema>;
