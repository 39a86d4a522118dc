// Wire schemas of projects (spec section 2, "Project").
import { z } from 'zod';
import { ProjectRoleSchema, Timestamp, Uuid } from './common.js';

export const ProjectSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    key: z.string(),
    description: z.string(),
    settings: z.record(z.string(), z.unknown()),
    user_role: ProjectRoleSchema,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof ProjectSchema>;

/** URL-safe: lower-case letters, digits, `-` and `_`, starting with a letter or digit. */
export const ProjectKey = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'key must be URL-safe: lower-case letters, digits, "-" and "_"');

export const CreateProjectBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    key: ProjectKey,
    description: z.string().max(10_000).optional(),
  })
  .strict()
  .meta({ id: 'CreateProjectRequest' });
export type CreateProjectInput = z.infer<typeof CreateProjectBody>;

/** Bounds of `settings.schedule.assessment_interval_hours` (30 days at most); the scheduler reads the same. */
export const MIN_ASSESSMENT_INTERVAL_HOURS = 1;
export const MAX_ASSESSMENT_INTERVAL_HOURS = 720;

/**
 * Free-form project settings; the keys the service reads are checked: a value outside their range
 * is refused here instead of being stored and ignored.
 */
export const ProjectSettingsInput = z
  .object({
    schedule: z
      .object({
        assessment_interval_hours: z
          .number()
          .min(MIN_ASSESSMENT_INTERVAL_HOURS)
          .max(MAX_ASSESSMENT_INTERVAL_HOURS)
          .meta({
            description: `hours between scheduled assessments, ${MIN_ASSESSMENT_INTERVAL_HOURS} to ${MAX_ASSESSMENT_INTERVAL_HOURS}; without it none are scheduled`,
          }),
      })
      .partial()
      .strict()
      .optional(),
    pr_feedback: z
      .object({
        enabled: z.boolean().meta({
          description: 'check runs and one sticky comment on pull requests of repositories linked through the GitHub App; default true',
        }),
      })
      .partial()
      .strict()
      .optional(),
  })
  .catchall(z.unknown())
  .meta({ description: 'replaces the settings as a whole; other keys are kept as given' });

export const UpdateProjectBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).optional(),
    settings: ProjectSettingsInput.optional(),
  })
  .strict()
  .meta({ id: 'UpdateProjectRequest' });
export type UpdateProjectInput = z.infer<typeof UpdateProjectBody>;
