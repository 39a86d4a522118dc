// Wire schemas of repositories, links and code-host installations (spec sections 2 and 4,
// "Repository", "Code-host installation", "Repositories").
import { z } from 'zod';
import { Timestamp, Uuid } from './common.js';

export const AnalyzerSchema = z
  .object({
    language: z.string(),
    path: z.string().meta({ description: 'relative directory, `.` for the root' }),
    enabled: z.boolean(),
    description: z.string(),
  })
  .meta({ id: 'Analyzer' });
export type RepositoryAnalyzer = z.infer<typeof AnalyzerSchema>;

export const RepositorySchema = z
  .strictObject({
    id: Uuid,
    vcs_id: z.number().int().meta({ description: 'repository id at the code host; 0 for local repositories' }),
    installation_id: z.number().int().meta({ description: 'code-host App installation id; 0 when not tied to an installation' }),
    owner: z.string(),
    name: z.string(),
    full_name: z.string(),
    url: z.string(),
    description: z.string(),
    default_branch: z.string(),
    analyzers: z.array(AnalyzerSchema),
    private: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Repository' });
export type Repository = z.infer<typeof RepositorySchema>;

export const InstallationSchema = z
  .strictObject({
    id: Uuid,
    provider: z.string().meta({ description: 'the code-host name (`github`)' }),
    installation_id: z.number().int(),
    account_login: z.string(),
    account_type: z.string().meta({ description: 'as the code host names it: `Organization` or `User`' }),
    status: z.string().meta({ description: '`active`, or `suspended` when the account suspended the App' }),
    created_at: Timestamp,
  })
  .meta({ id: 'CodeHostInstallation' });
export type Installation = z.infer<typeof InstallationSchema>;

/** Most repositories one `POST /projects/{id}/repos` links (spec section 8 leaves it to us). */
export const MAX_LINK_BATCH = 100;

const SkipOnboarding = z.boolean().default(false).meta({ description: 'link without starting the onboarding workflow; default false' });

export const LinkRepositoriesBody = z
  .strictObject({
    repository_id: Uuid.optional(),
    repository_ids: z.array(Uuid).min(1).max(MAX_LINK_BATCH).optional(),
    skip_onboarding: SkipOnboarding,
  })
  .refine((body) => (body.repository_id === undefined) !== (body.repository_ids === undefined), {
    message: 'give exactly one of repository_id or repository_ids',
  })
  .meta({ id: 'LinkRepositoriesRequest', description: 'exactly one of repository_id or repository_ids (at most 100)' });
export type LinkRepositoriesInput = z.infer<typeof LinkRepositoriesBody>;

export const LinkRepositoriesResponse = z
  .strictObject({
    status: z.literal('linked'),
    linked: z.number().int().meta({ description: 'number of repositories linked by this call' }),
    onboarding_session_id: Uuid,
  })
  .meta({ id: 'LinkRepositoriesResponse' });
export type LinkRepositoriesResult = z.infer<typeof LinkRepositoriesResponse>;

export const AddPublicRepositoryBody = z
  .strictObject({
    url: z.string().min(1).optional().meta({ description: 'https://github.com/<owner>/<name>, or file:///path in embedded mode' }),
    owner: z.string().min(1).optional(),
    name: z.string().min(1).optional(),
    skip_onboarding: SkipOnboarding,
  })
  .refine((body) => (body.url !== undefined ? body.owner === undefined && body.name === undefined : body.owner !== undefined && body.name !== undefined), {
    message: 'give either url, or owner and name',
  })
  .meta({ id: 'AddPublicRepositoryRequest', description: 'either url, or owner and name' });
export type AddPublicRepositoryInput = z.infer<typeof AddPublicRepositoryBody>;

export const AddPublicRepositoryResponse = z
  .strictObject({
    status: z.literal('linked'),
    repository: RepositorySchema,
    onboarding_session_id: Uuid,
  })
  .meta({ id: 'AddPublicRepositoryResponse' });
export type AddPublicRepositoryResult = z.infer<typeof AddPublicRepositoryResponse>;

export const SyncInstallationsBody = z
  .strictObject({
    installation_ids: z
      .array(z.number().int().positive())
      .max(MAX_LINK_BATCH)
      .optional()
      .meta({ description: 'installations to sync; omitted: every installation of the App' }),
  })
  .meta({ id: 'SyncInstallationsRequest' });
export type SyncInstallationsInput = z.infer<typeof SyncInstallationsBody>;
