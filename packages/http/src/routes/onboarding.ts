// Routes of this resource group (filled in by its issue).
import type { RouteDefinition } from '../route.js';

export const onboardingRoutes: RouteDefinition[] = [];
