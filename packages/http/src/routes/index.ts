// The whole route table, one module per resource group.
import type { RouteDefinition } from '../route.js';
import { apiKeyRoutes } from './api-keys.js';
import { architectureRoutes } from './architecture.js';
import { dismissRuleRoutes } from './dismiss-rules.js';
import { healthRoutes } from './health.js';
import { issueRoutes } from './issues.js';
import { memberRoutes } from './members.js';
import { onboardingRoutes } from './onboarding.js';
import { prAnalysisRoutes } from './pr-analyses.js';
import { projectRoutes } from './projects.js';
import { repositoryRoutes } from './repositories.js';
import { systemRoutes } from './system.js';
import { webhookRoutes } from './webhooks.js';

export const ALL_ROUTES: readonly RouteDefinition[] = [
  ...systemRoutes,
  ...projectRoutes,
  ...memberRoutes,
  ...repositoryRoutes,
  ...healthRoutes,
  ...issueRoutes,
  ...dismissRuleRoutes,
  ...prAnalysisRoutes,
  ...architectureRoutes,
  ...onboardingRoutes,
  ...apiKeyRoutes,
  ...webhookRoutes,
];
