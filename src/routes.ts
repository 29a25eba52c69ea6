// Every route of the service, area by area. Adding an area means adding its routes here.
import type { Deps } from './http/deps.js';
import type { RouteSpec } from './http/route.js';
import { systemRoutes } from './ops/systemRoutes.js';
import { tenancyRoutes } from './tenancy/routes.js';
import { creditRoutes } from './credits/routes.js';
import { deltaRoutes } from './deltas/routes.js';
import { memoryRoutes } from './memories/routes.js';
import { memoryCorrectionRoutes } from './memories/correctionRoutes.js';
import { episodeRoutes } from './episodes/routes.js';
import { entityRoutes } from './entities/correctionRoutes.js';
import { loopRoutes } from './loops/routes.js';
import { extractionRoutes } from './loops/extractionRoutes.js';
import { submissionRoutes } from './submissions/routes.js';
import { documentRoutes } from './documents/routes.js';
import { documentCorrectionRoutes } from './documents/correctionRoutes.js';
import { shapeRoutes } from './shapes/routes.js';
import { ontologyRoutes } from './ontology/routes.js';
import { searchRoutes } from './search/routes.js';
import { graphRoutes } from './graph/routes.js';
import { preflightRoutes } from './preflight/routes.js';
import { opsRoutes } from './ops/routes.js';
import { sliceRoutes } from './slices/routes.js';
import { contextRoutes } from './context/routes.js';
import { packRoutes } from './packs/routes.js';
import { connectionRoutes } from './connections/routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { bridgeRoutes } from './bridges/routes.js';

export function allRoutes(deps: Deps): RouteSpec[] {
  const routes: RouteSpec[] = [];
  routes.push(...systemRoutes(deps, () => routes));
  routes.push(...tenancyRoutes(deps));
  routes.push(...creditRoutes(deps));
  routes.push(...deltaRoutes(deps));
  routes.push(...memoryRoutes(deps), ...memoryCorrectionRoutes(deps), ...episodeRoutes(deps), ...entityRoutes(deps));
  routes.push(...loopRoutes(deps));
  routes.push(...extractionRoutes(deps));
  routes.push(...submissionRoutes(deps));
  routes.push(...documentRoutes(deps), ...documentCorrectionRoutes(deps));
  routes.push(...shapeRoutes(deps), ...ontologyRoutes(deps), ...searchRoutes(deps), ...graphRoutes(deps));
  routes.push(...preflightRoutes(deps));
  routes.push(...opsRoutes(deps));
  routes.push(...sliceRoutes(deps), ...contextRoutes(deps), ...packRoutes(deps));
  routes.push(...connectionRoutes(deps));
  routes.push(...webhookRoutes(deps));
  routes.push(...bridgeRoutes(deps));
  return routes;
}
