// Wire schemas of the inbound code-host webhook (spec section 6: "handling and payload fields of
// inbound webhooks beyond signature verification: not shown"). The answer names every effect of a
// delivery, so an operator reading GitHub's delivery log sees what the service did with it.
import { z } from 'zod';
import { Uuid } from './common.js';

const PrNumber = z.number().int().min(1);

export const WebhookActionSchema = z
  .discriminatedUnion('type', [
    z
      .object({
        type: z.literal('pull_request_updated'),
        repository_id: Uuid,
        pr_number: PrNumber,
        state: z.enum(['open', 'closed']),
        merged: z.boolean(),
        head_sha: z.string(),
      })
      .meta({ description: 'the stored pull request was inserted or refreshed from the payload' }),
    z
      .object({
        type: z.literal('pr_analysis'),
        project_id: Uuid,
        repository_id: Uuid,
        pr_number: PrNumber,
        head_sha: z.string(),
        analysis_id: Uuid,
        workflow_id: z.string(),
        created: z.boolean().meta({ description: 'false: an analysis of the same head commit was reused' }),
      })
      .meta({ description: 'a PR analysis was started (or reused) for a project the repository is linked to' }),
    z
      .object({
        type: z.literal('health_assessment'),
        project_id: Uuid,
        trigger_type: z.enum(['push', 'pr_merge']),
        assessment_id: Uuid,
        workflow_id: z.string(),
        created: z.boolean().meta({ description: 'false: an assessment already pending or running was reused' }),
      })
      .meta({ description: 'a health assessment was queued (or coalesced with one under way) for a linked project' }),
    z
      .object({ type: z.literal('project_skipped'), project_id: Uuid, reason: z.string() })
      .meta({ description: 'a linked project could not take the run (e.g. unlinked meanwhile)' }),
    z
      .object({
        type: z.literal('installation_updated'),
        installation_id: z.number().int(),
        status: z.enum(['active', 'suspended', 'deleted']),
      })
      .meta({ description: 'the code-host installation row was inserted or its status changed' }),
    z
      .object({
        type: z.literal('repositories_attached'),
        installation_id: z.number().int(),
        repository_ids: z.array(Uuid),
        unknown_full_names: z.array(z.string()).meta({
          description: 'granted repositories the service has no metadata for; the next installation sync stores them',
        }),
      })
      .meta({ description: 'repositories the installation now grants were attached to it' }),
    z
      .object({ type: z.literal('repositories_detached'), installation_id: z.number().int(), repository_ids: z.array(Uuid) })
      .meta({ description: 'repositories the installation no longer grants were detached (no longer available for linking)' }),
    z
      .object({
        type: z.literal('nul_replaced'),
        count: z.number().int().min(1).meta({ description: 'strings (and names) of the payload that held U+0000' }),
        paths: z.array(z.string()).meta({ description: 'their dotted paths in the payload, the first 20' }),
      })
      .meta({ description: 'the store cannot hold U+0000: the delivery was read with U+FFFD in place of each one' }),
  ])
  .meta({ id: 'WebhookAction' });
export type WebhookAction = z.infer<typeof WebhookActionSchema>;

export const WebhookResponseSchema = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('processed'), event: z.string(), actions: z.array(WebhookActionSchema) }),
    z.object({ status: z.literal('ignored'), reason: z.string() }),
    z.object({ status: z.literal('duplicate') }),
    z.object({ status: z.literal('pong') }),
  ])
  .meta({ id: 'WebhookResponse' });
export type WebhookResponse = z.infer<typeof WebhookResponseSchema>;
