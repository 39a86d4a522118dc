// The `compliance` analyzer: licences (the repository's own, its dependencies', file headers),
// APIs the repository bans, and debt markers aged by git blame.
import { defineAnalyzer } from '@codehealth/engine/kit';
import { bannedApi } from './banned-api/rule.js';
import { markersCollector } from './debt-marker/collector.js';
import { debtMarker } from './debt-marker/rule.js';
import { dependencyLicense } from './dependency-license/rule.js';
import { licenseFile } from './license-file/rule.js';
import { licenseHeader } from './license-header/rule.js';

export const compliance = defineAnalyzer({
  id: 'compliance',
  description: 'Checks licences (repository, dependencies, file headers), banned APIs and aged TODO/FIXME markers',
  categories: ['compliance'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [licenseFile, licenseHeader, dependencyLicense, bannedApi, debtMarker],
  collectors: [markersCollector],
  readsGraph: false,
});
