// The ajv-formats plugin (date-time, date, uri, …), typed once for every ajv instance of the service and its
// tests: ajv-formats ships CommonJS, and under NodeNext its default import is the module, not the plugin's type.
import type { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

/** Adds the standard formats to an ajv instance and answers it. */
export const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
