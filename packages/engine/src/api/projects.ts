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

export const UpdateProjectBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    description: z.string().max(10_000).optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .meta({ id: 'UpdateProjectRequest' });
export type UpdateProjectInput = z.infer<typeof UpdateProjectBody>;
