// Projects (spec section 4, "Projects").
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'Projects';

export const projectRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects',
    operationId: 'listProjects',
    summary: 'All projects the caller belongs to (not paginated)',
    tag: TAG,
    status: 200,
    response: z.array(api.ProjectSchema),
    handler: ({ services, actor }) => services.projects.list(actor),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects',
    operationId: 'createProject',
    summary: 'Create a project; the caller becomes its owner',
    tag: TAG,
    body: api.CreateProjectBody,
    status: 201,
    response: api.ProjectSchema,
    errors: [409],
    handler: ({ services, actor, body }) => services.projects.create(actor, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{id}',
    operationId: 'getProject',
    summary: 'One project',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    status: 200,
    response: api.ProjectSchema,
    handler: ({ services, actor, params }) => services.projects.get(actor, params.id),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/projects/{id}',
    operationId: 'updateProject',
    summary: 'Change name, description or settings; only provided fields change (settings is replaced as a whole)',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    body: api.UpdateProjectBody,
    status: 200,
    response: api.ProjectSchema,
    handler: ({ services, actor, params, body }) => services.projects.update(actor, params.id, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/projects/{id}',
    operationId: 'deleteProject',
    summary: 'Delete a project and all its data (owners only)',
    tag: TAG,
    access: 'owner',
    params: ProjectParams,
    status: 204,
    handler: ({ services, actor, params }) => services.projects.delete(actor, params.id),
  }),
];
