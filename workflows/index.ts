// Every workflow type the worker registers. Workflow files import only activity types.
export { serviceCheck } from './serviceCheck.js';
export { graphExtractionLoop, hydrateLoop } from './loops.js';
export { connectionSync } from './connectionSync.js';
export { reembed } from './reembed.js';
export { webhookDelivery } from './webhookDelivery.js';
